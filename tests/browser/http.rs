//! `ttlFromHeaders` at the JS edge: what `edge.js` reads from a `Headers` and from plain objects
//! (names in any case, lines of one field joined), and refusals that name the value, never a JS
//! exception unwinding through wasm. The rules themselves are table-tested on the host
//! (`src/core/http.rs`).

use idb_ttl::js::http::ttl_from_headers;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::wasm_bindgen_test;

use crate::util::*;

const NOW: f64 = 1_800_000_000.0; // Fri, 15 Jan 2027 08:00:00 GMT

#[wasm_bindgen_test]
fn ttl_from_headers_reads_headers_and_plain_objects() {
    // (headers source, now, expected)
    let cases: Vec<(&str, JsValue, Option<f64>)> = vec![
        ("new Headers({ 'Cache-Control': 'max-age=60', Age: '10' })", NOW.into(), Some(50.0)),
        ("new Headers([['cache-control', 'max-age=60'], ['Cache-Control', 'no-store']])", NOW.into(), None),
        ("new Headers({ expires: 'Fri, 15 Jan 2027 09:00:00 GMT', date: 'Fri, 15 Jan 2027 08:00:00 GMT' })", NOW.into(), Some(3600.0)),
        // Two Expires lines read as "a, b": not one date, so stale.
        ("(() => { const h = new Headers(); h.append('expires', 'Fri, 15 Jan 2027 09:00:00 GMT'); h.append('expires', 'Fri, 15 Jan 2027 10:00:00 GMT'); return h; })()", NOW.into(), Some(0.0)),
        ("new Headers({ 'content-type': 'text/plain' })", NOW.into(), None),
        ("new Response('', { headers: { 'cache-control': 'no-cache' } }).headers", NOW.into(), Some(0.0)),
        ("({ 'CACHE-CONTROL': 'max-age=60', aGe: '10', 'x-other': 5 })", NOW.into(), Some(50.0)),
        ("({ 'cache-control': 'max-age=60', 'Cache-Control': 'no-store' })", NOW.into(), None),
        ("({ 'cache-control': undefined, expires: 'Fri, 15 Jan 2027 09:00:00 GMT' })", NOW.into(), Some(3600.0)),
        ("({})", NOW.into(), None),
        ("Object.assign(Object.create(null), { 'cache-control': 'max-age=5' })", NOW.into(), Some(5.0)),
    ];
    for (src, now, want) in cases {
        let got = ttl_from_headers(js(src), now).unwrap_or_else(|e| panic!("{src}: {}", message(&e)));
        assert_eq!(got, want, "{src}");
    }
    // The clock, when now is not given: an Expires an hour from the real now.
    let in_an_hour = js("({ expires: new Date(Math.ceil(Date.now() / 1000) * 1000 + 3_600_000).toUTCString() })");
    let ttl = ttl_from_headers(in_an_hour, JsValue::UNDEFINED).unwrap().unwrap();
    assert!((3590.0..=3601.0).contains(&ttl), "{ttl}");
}

#[wasm_bindgen_test]
fn ttl_from_headers_refuses_bad_input_by_name() {
    // (headers source, now source, error class, parts of the message)
    let cases: Vec<(&str, &str, &str, Vec<&str>)> = vec![
        ("undefined", "undefined", "TypeError", vec!["ttlFromHeaders headers undefined", "a Headers (response.headers) or a plain object"]),
        ("null", "undefined", "TypeError", vec!["ttlFromHeaders headers null"]),
        ("'max-age=60'", "undefined", "TypeError", vec!["ttlFromHeaders headers \"max-age=60\""]),
        ("new Map([['cache-control', 'max-age=60']])", "undefined", "TypeError", vec!["headers a Map (1 entries)"]),
        ("[['cache-control', 'max-age=60']]", "undefined", "TypeError", vec!["ttlFromHeaders headers [[\"cache-control\",\"max-age=60\"]]"]),
        ("new Response('')", "undefined", "TypeError", vec!["ttlFromHeaders headers a Response"]),
        ("({ 'Cache-Control': 60 })", "undefined", "TypeError", vec!["ttlFromHeaders headers[\"Cache-Control\"] 60 is not accepted; expected a string"]),
        ("({ age: null })", "undefined", "TypeError", vec!["headers[\"age\"] null"]),
        ("({ get Expires() { throw new Error('boom from a getter'); } })", "undefined", "TypeError", vec!["ttlFromHeaders headers[\"Expires\"] cannot be read", "boom from a getter"]),
        ("new Proxy({}, { ownKeys() { throw new Error('boom from a trap'); } })", "undefined", "TypeError", vec!["ttlFromHeaders headers cannot be read", "boom from a trap"]),
        ("(() => { const r = Proxy.revocable({}, {}); r.revoke(); return r.proxy; })()", "undefined", "TypeError", vec!["ttlFromHeaders headers"]),
        ("new Proxy(new Headers(), {})", "undefined", "TypeError", vec!["ttlFromHeaders headers.get(\"cache-control\") cannot be read"]),
        ("({})", "NaN", "RangeError", vec!["ttlFromHeaders now NaN", "Unix seconds"]),
        ("({})", "-1", "RangeError", vec!["ttlFromHeaders now -1"]),
        ("({})", "Infinity", "RangeError", vec!["ttlFromHeaders now Infinity"]),
        ("({})", "Date.now()", "RangeError", vec!["looks like milliseconds", "Date.now() / 1000"]),
        ("({})", "'1800000000'", "TypeError", vec!["ttlFromHeaders now \"1800000000\"", "Unix seconds as a number"]),
        ("({})", "new Date(0)", "TypeError", vec!["ttlFromHeaders now Date(0)"]),
        ("({})", "null", "TypeError", vec!["ttlFromHeaders now null"]),
        ("({})", "5n", "TypeError", vec!["ttlFromHeaders now 5n"]),
    ];
    for (headers, now, class, parts) in &cases {
        let e = ttl_from_headers(js(headers), js(now)).expect_err(headers);
        assert_error(&e, class, parts);
    }
    // A header value of 10 MB is read and found to say nothing; a Headers with one too.
    let big = js("({ 'cache-control': 'x'.repeat(10_000_000), expires: 'y'.repeat(10_000_000) })");
    assert_eq!(ttl_from_headers(big, NOW.into()).unwrap(), Some(0.0));
    let big = js("new Headers({ 'cache-control': 'max-age=7, ' + 'x'.repeat(10_000_000) })");
    assert_eq!(ttl_from_headers(big, NOW.into()).unwrap(), Some(7.0));

    // Thousands of refusals, thrown synchronously: no JS exception crosses wasm frames, no wasm
    // memory is leaked, and the function still answers.
    let hostile = js("[(() => { const r = Proxy.revocable({}, {}); r.revoke(); return r.proxy; })(), \
        new Proxy({}, { ownKeys() { throw new Error('boom'); } }), { get age() { throw new Error('boom'); } }, new Proxy(new Headers(), {})]");
    let hostile = js_sys::Array::from(&hostile);
    let memory = || js_sys::Reflect::get(&js_sys::Reflect::get(&wasm_bindgen::memory(), &"buffer".into()).unwrap(), &"byteLength".into()).unwrap().as_f64().unwrap();
    let before = memory();
    for round in 0..4_000 {
        let e = ttl_from_headers(hostile.get(round % hostile.length()), JsValue::UNDEFINED).unwrap_err();
        assert!(e.is_instance_of::<js_sys::TypeError>(), "round {round}: {}", message(&e));
    }
    assert!(memory() - before <= 1_048_576.0, "wasm memory grew by {} bytes over 4 000 refusals", memory() - before);
    assert_eq!(ttl_from_headers(js("({ 'cache-control': 'max-age=3' })"), NOW.into()).unwrap(), Some(3.0));
}
