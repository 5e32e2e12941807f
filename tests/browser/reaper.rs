//! The reaper: physical removal, caps and batches, the re-check, the timer, pause and resume.

use wasm_bindgen::prelude::*;
use wasm_bindgen_test::wasm_bindgen_test;

use crate::util::*;

/// Collection `name` with a TTL index on `at` with expireAfter 0 (`at` is the expiry), holding
/// the documents `docs` (JS source).
#[cfg(feature = "full")]
async fn dated_collection(s: &JsValue, name: &str, docs: &str) -> JsValue {
    let c = call(s, "collection", &[name.into(), js("({ ttlIndex: { field: 'at', expireAfter: 0 } })")]).await;
    call(&c, "putMany", &[js(docs)]).await;
    c
}

#[wasm_bindgen_test]
async fn a_pass_physically_removes_expired_records_and_reports_them() {
    let name = db_name("physical");
    let s = open_manual(&name).await;
    fill(&s, 30, 5).await;
    assert_eq!(raw_records(&name).await.length(), 35, "expired records are stored until reaped");
    let expired = listen(&s, "expired");
    let report = call(&s, "reap", &[]).await;
    assert_eq!(num(&field(&report, "removed")), 30.0);
    assert_eq!(num(&field(&report, "remaining")), 0.0);
    assert!(num(&field(&report, "durationMs")) >= 0.0);
    let left = raw_keys(&name).await;
    assert_eq!(left.len(), 5);
    assert!(left.iter().all(|k| k.as_string().unwrap().starts_with("live")));
    assert_eq!(expired.length(), 1);
    let mut keys = strings(&field(&expired.get(0), "keys"));
    keys.sort();
    let mut want: Vec<String> = (0..30).map(|i| format!("e{i}")).collect();
    want.sort();
    assert_eq!(keys, want);
    let stats = call(&s, "stats", &[]).await;
    assert_eq!(num(&field(&stats, "reaperRuns")), 1.0);
    assert_eq!(num(&field(&stats, "removedTotal")), 30.0);
    assert_eq!(num(&field(&field(&stats, "lastRun"), "removed")), 30.0);
    // Nothing left: a second pass removes nothing and fires no event.
    let report = call(&s, "reap", &[]).await;
    assert_eq!(num(&field(&report, "removed")), 0.0);
    assert_eq!(expired.length(), 1);
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn the_per_pass_cap_holds_and_remaining_is_reported() {
    let name = db_name("cap");
    let s = open(&name, js("({ autoReap: false, batchSize: 7, maxRemovesPerRun: 20 })")).await;
    fill(&s, 45, 3).await;
    let report = call(&s, "reap", &[]).await;
    assert_eq!(num(&field(&report, "removed")), 20.0);
    assert_eq!(num(&field(&report, "remaining")), 25.0);
    assert_eq!(raw_records(&name).await.length(), 28);
    let report = call(&s, "reap", &[]).await;
    assert_eq!((num(&field(&report, "removed")), num(&field(&report, "remaining"))), (20.0, 5.0));
    let report = call(&s, "reap", &[]).await;
    assert_eq!((num(&field(&report, "removed")), num(&field(&report, "remaining"))), (5.0, 0.0));
    assert_eq!(raw_records(&name).await.length(), 3);
    destroy(&name).await;
}

/// A batch reads its keys 500 per request (`Conn::reap`, READ_CHUNK): batches of 1 200 take three
/// requests, the last one short, and still remove exactly the expired records, each reported once.
#[cfg(feature = "full")]
#[wasm_bindgen_test]
async fn batches_larger_than_one_read_remove_exactly_the_expired_records() {
    let name = db_name("chunks");
    let s = open(&name, js("({ autoReap: false, batchSize: 1200, maxRemovesPerRun: 100000 })")).await;
    fill(&s, 2_534, 7).await;
    let c = dated_collection(&s, "c", "Array.from({ length: 1_300 }, (_, i) => ({ id: i, at: new Date(Date.now() + (i % 2 ? 60_000 : -1000)) }))").await;
    let expired = listen(&s, "expired");
    let report = call(&s, "reap", &[]).await;
    assert_eq!(num(&field(&report, "removed")), 2_534.0 + 650.0);
    assert_eq!(num(&field(&field(&report, "collections"), "c")), 650.0);
    assert_eq!(num(&field(&report, "remaining")), 0.0);
    let mut keys = strings(&field(&expired.get(0), "keys"));
    keys.sort();
    let mut want: Vec<String> = (0..2_534).map(|i| format!("e{i}")).collect();
    want.sort();
    assert_eq!(keys, want, "every expired key once, no live key");
    let ids: Vec<f64> = js_sys::Array::from(&field(&field(&expired.get(0), "collections"), "c")).iter().map(|v| num(&v)).collect();
    assert_eq!(ids, (0..1_300).step_by(2).map(f64::from).collect::<Vec<_>>(), "the expired documents' ids, in order");
    assert_eq!(raw_records(&name).await.length(), 7);
    assert_eq!(raw_store(&name, "docs", "getAll").await.length(), 650);
    assert_eq!(num(&call(&c, "count", &[]).await), 650.0);
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn an_entry_rewritten_while_a_pass_runs_survives_it() {
    // The pass removes 1 entry per transaction; the write below lands between its transactions,
    // after the pass has started and while e39 is still stored as expired. Only entries still
    // expired when their batch is deleted go (YDB's re-check): the rewritten one stays.
    let name = db_name("recheck");
    let s = open(&name, js("({ autoReap: false, batchSize: 1 })")).await;
    fill(&s, 40, 0).await;
    let pass = try_call(&s, "reap", &[]);
    let args = ["e39".into(), "fresh".into(), js("({ ttl: 3600 })")];
    let write = try_call(&s, "set", &args);
    let (pass, write) = futures_join(pass, write).await;
    write.expect("set");
    let report = pass.expect("reap");
    assert_eq!(num(&field(&report, "removed")), 39.0);
    assert_eq!(call(&s, "get", &["e39".into()]).await, "fresh");
    let raw = raw_keys(&name).await;
    assert_eq!(raw.len(), 1);
    assert_eq!(raw[0], "e39");
    destroy(&name).await;
}

/// `reaperRuns` once it has held still for `quiet_ms`: a pass under way when the reaper was
/// paused or closed may still finish, however long it takes on a loaded machine (issue 39); a
/// reaper still running passes every interval never holds still, and the wait fails.
async fn runs_once_still(s: &JsValue, quiet_ms: u32) -> f64 {
    let runs = || num(&field(&call_stats(s), "reaperRuns"));
    for _ in 0..LONG_MS / quiet_ms {
        let before = runs();
        sleep(quiet_ms).await;
        if runs() == before {
            return before;
        }
    }
    panic!("reaper passes never stopped");
}

fn call_stats(s: &JsValue) -> JsValue {
    js_sys::Function::from(field(s, "stats")).call0(s).unwrap()
}

#[wasm_bindgen_test]
async fn the_background_reaper_runs_on_its_interval_and_can_pause() {
    let name = db_name("timer");
    let s = open(&name, js("({ reapIntervalMs: 100 })")).await;
    let expired = listen(&s, "expired");
    fill(&s, 10, 1).await;
    assert!(eventually(|| expired.length() > 0).await, "the timer ran a pass");
    assert_eq!(expired.length(), 1, "one pass removed them");
    assert_eq!(raw_records(&name).await.length(), 1);
    call(&s, "pauseReaper", &[]).await;
    assert_eq!(field(&call(&s, "stats", &[]).await, "reaperPaused"), JsValue::TRUE);
    // Pausing stops new passes; one already under way finishes. Let it.
    let runs = runs_once_still(&s, 300).await;
    fill(&s, 5, 0).await;
    sleep(400).await;
    assert_eq!(num(&field(&call(&s, "stats", &[]).await, "reaperRuns")), runs, "paused: no pass");
    assert_eq!(raw_records(&name).await.length(), 6);
    call(&s, "resumeReaper", &[]).await;
    assert!(eventually(|| expired.length() > 1).await, "resumed: a pass ran");
    assert_eq!(expired.length(), 2, "one pass removed them");
    assert_eq!(raw_records(&name).await.length(), 1);
    // close() stops the timer: no pass after it (beyond one under way).
    call(&s, "close", &[]).await;
    let runs = runs_once_still(&s, 300).await;
    sleep(300).await;
    assert_eq!(num(&field(&call(&s, "stats", &[]).await, "reaperRuns")), runs);
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn entries_without_expiry_are_never_reaped() {
    let name = db_name("never");
    let s = open_manual(&name).await;
    fill(&s, 0, 50).await;
    let report = call(&s, "reap", &[]).await;
    assert_eq!(num(&field(&report, "removed")), 0.0);
    assert_eq!(raw_records(&name).await.length(), 50);
    destroy(&name).await;
}

#[cfg(feature = "full")]
#[wasm_bindgen_test]
async fn the_per_collection_cap_spreads_a_pass_across_collections() {
    let name = db_name("percoll");
    let s = open(&name, js("({ autoReap: false, batchSize: 4, maxRemovesPerRun: 25, maxRemovesPerCollection: 10 })")).await;
    fill(&s, 15, 0).await;
    let expired_docs = "Array.from({ length: 15 }, (_, i) => ({ id: i, at: new Date(Date.now() - 1000) }))";
    dated_collection(&s, "c", expired_docs).await;
    dated_collection(&s, "d", expired_docs).await;
    let expired = listen(&s, "expired");
    // 10 entries, 10 from c, then only 5 from d: the pass cap (25) is reached.
    let report = call(&s, "reap", &[]).await;
    assert_eq!(num(&field(&report, "removed")), 25.0);
    assert_eq!(num(&field(&field(&report, "collections"), "c")), 10.0);
    assert_eq!(num(&field(&field(&report, "collections"), "d")), 5.0);
    assert_eq!(num(&field(&report, "remaining")), 20.0);
    assert_eq!(raw_records(&name).await.length(), 5);
    assert_eq!(raw_store(&name, "docs", "getAll").await.length(), 15);
    let detail = expired.get(0);
    assert_eq!(strings(&field(&detail, "keys")).len(), 10);
    assert_eq!(json(&field(&field(&detail, "collections"), "d")), "[0,1,2,3,4]");
    // Next passes finish the job.
    call(&s, "reap", &[]).await;
    let report = call(&s, "reap", &[]).await;
    assert_eq!(num(&field(&report, "remaining")), 0.0);
    assert_eq!(raw_store(&name, "docs", "getAll").await.length(), 0);
    assert_eq!(raw_records(&name).await.length(), 0);
    destroy(&name).await;
}

#[cfg(feature = "full")]
#[wasm_bindgen_test]
async fn remaining_counts_entries_documents_and_buckets_left_by_a_capped_pass() {
    let name = db_name("remaining");
    let s = open(&name, js("({ autoReap: false, batchSize: 5, maxRemovesPerRun: 5 })")).await;
    fill(&s, 10, 2).await;
    dated_collection(&s, "c", "Array.from({ length: 6 }, (_, i) => ({ id: i, at: new Date(Date.now() + (i < 4 ? -1000 : 60000)) }))").await;
    let ts = call(&s, "timeSeries", &["t".into(), js("({ timeField: 't', granularity: 'seconds', expireAfter: 60 })")]).await;
    // Three old hours, three buckets; the fourth is live.
    call(&ts, "insertMany", &[js("[5, 4, 3, 0].map((h) => ({ t: new Date(Date.now() - h * 3600000) }))")]).await;
    let mut passes = vec![];
    for _ in 0..4 {
        let r = call(&s, "reap", &[]).await;
        // A report names only the collections and series it removed something from.
        let part = |kind: &str, of: &str| field(&field(&r, kind), of).as_f64().unwrap_or(0.0);
        passes.push((num(&field(&r, "removed")), part("collections", "c"), part("timeSeries", "t"), num(&field(&r, "remaining"))));
    }
    // (removed, of which documents, of which buckets, remaining): the entries go first.
    assert_eq!(passes, [(5.0, 0.0, 0.0, 12.0), (5.0, 0.0, 0.0, 7.0), (5.0, 4.0, 1.0, 2.0), (2.0, 0.0, 2.0, 0.0)]);
    assert_eq!(raw_records(&name).await.length(), 2);
    assert_eq!(raw_store(&name, "docs", "getAll").await.length(), 2);
    assert_eq!(raw_store(&name, "buckets", "getAll").await.length(), 1);
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn a_pass_that_hits_its_cap_is_followed_soon_not_an_interval_later() {
    let name = db_name("backlog");
    let s = open(&name, js("({ reapIntervalMs: 2000, maxRemovesPerRun: 10 })")).await;
    // At each pass's "expired" event (fired after its stats are counted): the time, and how long
    // the pass took.
    let passes = js_sys::Array::new();
    let record: js_sys::Function = js("(s, out) => s.addEventListener('expired', () => out.push([Date.now(), s.stats().lastRun.durationMs]))").unchecked_into();
    record.call2(&JsValue::NULL, &s, &passes).unwrap();
    fill(&s, 50, 2).await;
    // Five capped passes: the first after one interval, each of the others 50 ms after the one
    // before. Waited for, however slow the machine (issue 39); what is checked is the pause
    // between passes, measured: shorter than the interval it would be without a backlog.
    assert!(eventually(|| num(&field(&call_stats(&s), "removedTotal")) >= 50.0).await, "the backlog is removed");
    let stats = call(&s, "stats", &[]).await;
    assert_eq!(num(&field(&stats, "removedTotal")), 50.0, "{:?}", stats);
    assert!(num(&field(&stats, "reaperRuns")) >= 5.0);
    assert_eq!(num(&field(&stats, "waiting")), 0.0);
    assert_eq!(passes.length(), 5, "five passes removed something: {}", json(&passes));
    let times: Vec<(f64, f64)> = passes.iter().map(|p| (num(&js_sys::Array::from(&p).get(0)), num(&js_sys::Array::from(&p).get(1)))).collect();
    for w in times.windows(2) {
        let pause = w[1].0 - w[0].0 - w[1].1;
        assert!(pause < 2000.0, "a pass {pause} ms after the end of a capped one: an interval, not soon ({times:?})");
    }
    let at = num(&field(&stats, "lastRunAt"));
    let last_event = times[times.len() - 1].0;
    assert!((at * 1000.0 - last_event).abs() < 5000.0, "lastRunAt is Unix seconds: {at}");
    assert_eq!(raw_records(&name).await.length(), 2);
    call(&s, "close", &[]).await;
}

#[wasm_bindgen_test]
async fn max_removes_per_second_paces_removal() {
    let name = db_name("rate");
    let s = open(&name, js("({ autoReap: false, maxRemovesPerSecond: 100 })")).await;
    let before = call(&s, "stats", &[]).await;
    assert_eq!(field(&before, "lastRunAt"), JsValue::NULL);
    assert_eq!(num(&field(&before, "waiting")), 0.0);
    fill(&s, 250, 0).await;
    let t0 = js_sys::Date::now();
    let report = call(&s, "reap", &[]).await;
    let took = js_sys::Date::now() - t0;
    assert_eq!(num(&field(&report, "removed")), 250.0, "the rate paces removal, it does not cap it");
    // 250 records at 100 a second: batches of 100, 100 and 50, the first two each followed by
    // the rest of their second.
    assert!(took >= 1900.0, "250 removals at 100/s took {took} ms");
    let e = try_open(&name, js("({ maxRemovesPerSecond: -5 })")).await.unwrap_err();
    assert_error(&e, "RangeError", &["maxRemovesPerSecond -5", "0 (no limit)"]);
    call(&s, "close", &[]).await;
}

/// Issue 8: gloo-timers took `millis as i32`, so an interval of 2^31 ms or more (24.8 days) made
/// the reaper run every few milliseconds. Such intervals now wait (chained timers).
#[wasm_bindgen_test]
async fn intervals_past_the_settimeout_limit_wait_instead_of_spinning() {
    for interval in ["2147483648", "3e9", "9007199254740991"] {
        let name = db_name("long-interval");
        let s = open(&name, js(&format!("({{ reapIntervalMs: {interval} }})"))).await;
        call(&s, "set", &["k".into(), 1.into(), js("({ ttl: 0.01 })")]).await;
        sleep(300).await;
        let stats = call(&s, "stats", &[]).await;
        assert_eq!(num(&field(&stats, "reaperRuns")), 0.0, "reapIntervalMs {interval}: no pass within 300 ms");
        assert_eq!(raw_records(&name).await.length(), 1, "the expired entry waits for its pass");
        call(&s, "close", &[]).await;
    }
}
