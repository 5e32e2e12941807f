//! A collection's reaping to CockroachDB's knobs: a schedule (`ttl_job_cron`) that background
//! passes keep and `reap()` does not, a pause saved in the database (`ttl_pause`), a select batch
//! apart from the delete batch, and the collection's own counters.

use wasm_bindgen::prelude::*;
use wasm_bindgen_test::wasm_bindgen_test;

use crate::util::*;

/// Puts `value` under `key` in the `meta` store of database `name`, bypassing the store.
async fn put_meta(name: &str, key: &str, value: f64) {
    let src = format!(
        r#"new Promise((resolve, reject) => {{
            const open = indexedDB.open({name:?});
            open.onerror = () => reject(open.error);
            open.onsuccess = () => {{
                const db = open.result;
                const tx = db.transaction("meta", "readwrite");
                tx.objectStore("meta").put({value}, {key:?});
                tx.oncomplete = () => {{ db.close(); resolve(); }};
                tx.onerror = () => {{ db.close(); reject(tx.error); }};
            }};
        }})"#
    );
    wasm_bindgen_futures::JsFuture::from(js_sys::Promise::from(js(&src))).await.expect("raw meta put");
}

/// The number of stored document records of collection `c`, expired or not.
async fn stored_docs(name: &str, c: &str) -> usize {
    raw_store(name, "docs", "getAll").await.iter().filter(|d| field(d, "c") == c).count()
}

/// Waits up to [`LONG_MS`] for collection `c` to hold no stored record; whether it came to that.
async fn until_none_stored(name: &str, c: &str) -> bool {
    for _ in 0..LONG_MS / 50 {
        if stored_docs(name, c).await == 0 {
            return true;
        }
        sleep(50).await;
    }
    false
}

/// `n` documents of collection `c` that expired two minutes ago.
async fn put_expired(c: &JsValue, n: u32) {
    call(c, "putMany", &[js(&format!("Array.from({{ length: {n} }}, (_, i) => ({{ id: i, at: Date.now() / 1000 - 180 }}))"))]).await;
}

#[wasm_bindgen_test]
async fn background_passes_keep_a_collection_s_schedule_and_run_a_missed_run_at_the_next_open() {
    let name = db_name("schedule");
    let s = open(&name, js("({ reapIntervalMs: 20 })")).await;
    let yearly = call(&s, "collection", &["yearly".into(), js("({ ttlIndex: { field: 'at', expireAfter: 60, schedule: '0 0 1 1 *' } })")]).await;
    let plain = call(&s, "collection", &["plain".into(), js("({ ttlIndex: { field: 'at', expireAfter: 60 } })")]).await;
    assert_eq!(field(&call(&yearly, "ttlIndex", &[]).await, "schedule"), "0 0 1 1 *");
    put_expired(&yearly, 5).await;
    put_expired(&plain, 5).await;
    // The unscheduled collection is reaped by the background passes; the scheduled one waits for
    // January 1 (reads hide its expired documents meanwhile).
    assert!(until_none_stored(&name, "plain").await, "the background passes reap the unscheduled collection");
    let runs = stat(&s, "reaperRuns");
    assert!(eventually(|| stat(&s, "reaperRuns") >= runs + 3.0).await);
    assert_eq!(stored_docs(&name, "yearly").await, 5, "not before its scheduled run");
    assert_eq!(num(&call(&yearly, "count", &[]).await), 0.0);
    let next = num(&call(&yearly, "nextReapAt", &[]).await);
    let jan1 = js("Date.UTC(new Date().getUTCFullYear() + 1, 0, 1) / 1000");
    assert_eq!(next, num(&jan1));
    assert!(call(&plain, "nextReapAt", &[]).await.is_null(), "no schedule: every background pass");
    call(&s, "close", &[]).await;

    // A run missed while no member was open (the last one two years ago) runs at the next open.
    put_meta(&name, "reaped:yearly", now() - 2.0 * 365.0 * 86_400_000.0).await;
    let s = open(&name, js("({ reapIntervalMs: 20 })")).await;
    assert!(until_none_stored(&name, "yearly").await, "the missed run ran");
    let yearly = call(&s, "collection", &["yearly".into()]).await;
    // The pass stamps its run once its turns have ended, after the documents went (a loaded
    // machine shows the gap): the run is due until then, and the next January 1 after.
    let mut next = num(&call(&yearly, "nextReapAt", &[]).await);
    for _ in 0..LONG_MS / 50 {
        if next == num(&jan1) {
            break;
        }
        assert!(next <= now() / 1000.0, "nextReapAt {next} before the stamp: the missed run is due, not in the future");
        sleep(50).await;
        next = num(&call(&yearly, "nextReapAt", &[]).await);
    }
    assert_eq!(next, num(&jan1), "the next run is the next January 1 again");

    // reap() runs everything now, schedule or not.
    put_expired(&yearly, 3).await;
    call(&s, "pauseReaper", &[]).await;
    let report = call(&s, "reap", &[]).await;
    assert_eq!(num(&field(&field(&report, "collections"), "yearly")), 3.0);
    // A schedule given anew replaces the stored one; a bad one is refused naming it.
    let hourly = call(&s, "collection", &["yearly".into(), js("({ ttlIndex: { field: 'at', expireAfter: 60, schedule: '@hourly' } })")]).await;
    assert_eq!(field(&call(&hourly, "ttlIndex", &[]).await, "schedule"), "@hourly");
    let e = try_call(&s, "collection", &["bad".into(), js("({ ttlIndex: { field: 'at', expireAfter: 60, schedule: '61 * * * *' } })")]).await.unwrap_err();
    assert_error(&e, "TypeError", &["ttlIndex.schedule \"61 * * * *\"", "minute field", "@hourly"]);
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn a_paused_collection_is_saved_paused_for_every_member_and_reads_still_hide_its_expired_documents() {
    let name = db_name("collpause");
    let s = open_manual(&name).await;
    let c = call(&s, "collection", &["c".into(), js("({ ttlIndex: { field: 'at', expireAfter: 60 } })")]).await;
    put_expired(&c, 4).await;
    call(&c, "put", &[js("({ id: 'live', at: Date.now() / 1000 })")]).await;
    call(&c, "pauseReaper", &[]).await;
    assert_eq!(field(&call(&c, "ttlIndex", &[]).await, "paused"), true);
    assert!(call(&c, "nextReapAt", &[]).await.is_null());
    let report = call(&s, "reap", &[]).await;
    assert!(field(&field(&report, "collections"), "c").is_undefined(), "a paused collection loses nothing");
    assert_eq!(stored_docs(&name, "c").await, 5);
    assert_eq!(num(&call(&c, "count", &[]).await), 1.0, "reads still hide expired documents");
    // Another member, and a store opened later, find it paused.
    let other = open_manual(&name).await;
    let c2 = call(&other, "collection", &["c".into(), js("({ ttlIndex: { field: 'at', expireAfter: 60 } })")]).await;
    assert_eq!(field(&call(&c2, "ttlIndex", &[]).await, "paused"), true, "the app's own options keep the saved pause");
    call(&other, "reap", &[]).await;
    assert_eq!(stored_docs(&name, "c").await, 5);
    // Resumed through the other member: the next pass reaps.
    call(&c2, "resumeReaper", &[]).await;
    assert!(field(&call(&c2, "ttlIndex", &[]).await, "paused").is_undefined());
    let report = call(&s, "reap", &[]).await;
    assert_eq!(num(&field(&field(&report, "collections"), "c")), 4.0);
    let plain = call(&s, "collection", &["p".into()]).await;
    let e = try_call(&plain, "pauseReaper", &[]).await.unwrap_err();
    assert_error(&e, "TypeError", &["collection \"p\" has no TTL index"]);
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn collection_stats_count_what_the_reaper_did_here_and_what_waits() {
    let name = db_name("collstats");
    // Keys looked up five at a time, removed twelve a transaction.
    let s = open(&name, js("({ autoReap: false, selectBatchSize: 5, batchSize: 12 })")).await;
    let c = call(&s, "collection", &["c".into(), js("({ ttlIndex: { field: 'at', expireAfter: 60 } })")]).await;
    put_expired(&c, 30).await;
    call(&c, "putMany", &[js("[{ id: 'a', at: Date.now() / 1000 }, { id: 'b', at: Date.now() / 1000 }]")]).await;
    let before = call(&c, "stats", &[]).await;
    assert_eq!(json(&before), r#"{"live":2,"expired":30,"removedTotal":0,"lastRunAt":null,"nextRunAt":null,"selectMs":0,"deleteMs":0}"#);
    let t0 = now() / 1000.0;
    let report = call(&s, "reap", &[]).await;
    assert_eq!(num(&field(&field(&report, "collections"), "c")), 30.0);
    let after = call(&c, "stats", &[]).await;
    assert_eq!((num(&field(&after, "live")), num(&field(&after, "expired")), num(&field(&after, "removedTotal"))), (2.0, 0.0, 30.0));
    let last = num(&field(&after, "lastRunAt"));
    assert!(last >= t0 - 0.001 && last <= now() / 1000.0, "{last}");
    assert!(num(&field(&after, "selectMs")) >= 0.0 && num(&field(&after, "deleteMs")) >= 0.0);
    assert_eq!(stored_docs(&name, "c").await, 2);
    // The select batch apart from the delete batch, both checked.
    for (opts, class, part) in [("({ selectBatchSize: 0 })", "RangeError", "selectBatchSize 0"), ("({ selectBatchSize: 'ten' })", "TypeError", "selectBatchSize \"ten\"")] {
        let e = try_open(&db_name("badselect"), js(opts)).await.unwrap_err();
        assert_error(&e, class, &[part]);
    }
    destroy(&name).await;
}
