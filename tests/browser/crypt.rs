//! Encryption at rest (`{ encryption }`) and `shred()`: no plaintext in IndexedDB, values back as
//! they were written, nothing readable once the key is destroyed, in any connection.

use js_sys::{Array, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::wasm_bindgen_test;

use crate::util::*;

/// Every record of object store `store`, as raw bytes would show the marker: whether any of
/// them holds `marker` as text anywhere (strings, or UTF-8 inside buffers).
async fn raw_holds(name: &str, store: &str, marker: &str) -> bool {
    let recs = raw_store(name, store, "getAll").await;
    let find = js_sys::Function::new_with_args(
        "recs, marker",
        "const bytes = new TextEncoder().encode(marker);
         const inBuffer = (b) => { const u = new Uint8Array(b); outer: for (let i = 0; i + bytes.length <= u.length; i++) { for (let j = 0; j < bytes.length; j++) if (u[i + j] !== bytes[j]) continue outer; return true; } return false; };
         const seen = new Set();
         const walk = (v) => {
           if (typeof v === 'string') return v.includes(marker);
           if (v === null || typeof v !== 'object' || seen.has(v)) return false;
           seen.add(v);
           if (v instanceof ArrayBuffer) return inBuffer(v);
           if (ArrayBuffer.isView(v)) return inBuffer(v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength));
           if (v instanceof Map) return [...v].some(([k, x]) => walk(k) || walk(x));
           return Object.values(v).some(walk);
         };
         return recs.some(walk);",
    );
    find.call2(&JsValue::NULL, &recs, &marker.into()).unwrap() == JsValue::TRUE
}

async fn open_encrypted(name: &str, options: &str) -> JsValue {
    open(name, js(options)).await
}

#[wasm_bindgen_test]
async fn values_are_stored_encrypted_and_read_back_as_written() {
    let name = db_name("crypt");
    let s = open_encrypted(&name, "({ autoReap: false, encryption: true })").await;
    let value = js("({ token: 'SECRET-MARKER-1', when: new Date(Date.UTC(2030, 0, 1)), tags: new Set(['a', 'SECRET-MARKER-2']),
        map: new Map([[1, 'one'], ['SECRET-MARKER-3', { n: NaN, z: -0, big: 12345678901234567890n, u: undefined }]]),
        bytes: new Uint8Array([83, 69, 67]), buf: new Uint16Array([1, 2, 3]).buffer, list: [1, 'x', null, Infinity] })");
    call(&s, "set", &["session".into(), value, js("({ ttl: 60 })")]).await;
    call(&s, "setMany", &[js("[['a', 'SECRET-MARKER-4'], [2, 'SECRET-MARKER-5']]")]).await;
    assert!(!raw_holds(&name, "entries", "SECRET-MARKER").await, "no plaintext of a value in IndexedDB");
    let rec = raw_records(&name).await.iter().find(|r| field(r, "k") == "session").unwrap();
    assert!(field(&field(&rec, "v"), "ct").is_instance_of::<js_sys::ArrayBuffer>(), "stored as ciphertext");
    assert_eq!(field(&field(&field(&rec, "v"), "iv"), "length"), 12);

    let back = call(&s, "get", &["session".into()]).await;
    let check = js_sys::Function::new_with_args(
        "v",
        "return v.token === 'SECRET-MARKER-1' && v.when instanceof Date && v.when.getTime() === Date.UTC(2030, 0, 1)
          && v.tags instanceof Set && v.tags.has('SECRET-MARKER-2') && v.map instanceof Map && v.map.get(1) === 'one'
          && Number.isNaN(v.map.get('SECRET-MARKER-3').n) && Object.is(v.map.get('SECRET-MARKER-3').z, -0)
          && v.map.get('SECRET-MARKER-3').big === 12345678901234567890n && 'u' in v.map.get('SECRET-MARKER-3')
          && v.bytes instanceof Uint8Array && v.bytes.join() === '83,69,67' && new Uint16Array(v.buf).join() === '1,2,3'
          && v.list.length === 4 && v.list[3] === Infinity;",
    );
    assert_eq!(check.call1(&JsValue::NULL, &back).unwrap(), JsValue::TRUE, "read back faithfully: {}", json(&back));
    assert_eq!(json(&call(&s, "getMany", &[js("['a', 2, 'missing']")]).await), r#"["SECRET-MARKER-4","SECRET-MARKER-5",null]"#);
    assert_eq!(json(&call(&s, "entries", &[]).await).contains("SECRET-MARKER-4"), true);
    assert_eq!(num(&call(&s, "count", &[]).await), 3.0);
    assert_eq!(call(&s, "peek", &["a".into()]).await, "SECRET-MARKER-4");
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn values_it_cannot_write_faithfully_are_refused_and_nothing_is_written() {
    let name = db_name("cryptbad");
    let s = open_encrypted(&name, "({ autoReap: false, encryption: true })").await;
    let cases = [
        ("new Blob(['x'])", "value is a Blob"),
        ("({ a: [1, , 3] })", "value.a[1] is a hole"),
        ("(() => { const o = { n: 1 }; o.self = o; return o; })()", "value.self is a reference to an object it is inside of"),
        ("new (class Point { constructor() { this.x = 1; } })()", "value is a Point"),
        ("({ re: /x/ })", "value.re is a RegExp"),
    ];
    for (src, part) in cases {
        let e = try_call(&s, "setMany", &[Array::of2(&js("['fine', 1]"), &Array::of2(&"k".into(), &js(src))).into()]).await.expect_err(src);
        assert_error(&e, "TypeError", &["the value for key \"k\"", part, "an encrypted store cannot write faithfully", "Map, Set"]);
    }
    assert_eq!(raw_records(&name).await.length(), 0, "no partial write");
    destroy(&name).await;
}

#[wasm_bindgen_test]
async fn shred_makes_everything_unreadable_in_every_connection() {
    let name = db_name("shred");
    let (a, b) = (open_encrypted(&name, "({ autoReap: false, encryption: true })").await, open_encrypted(&name, "({ autoReap: false, encryption: true })").await);
    call(&a, "setMany", &[js("[['k1', 'one'], ['k2', 'two', { ttl: 600 }]]")]).await;
    let docs = call(&a, "collection", &["docs".into(), JsValue::UNDEFINED]).await;
    call(&docs, "put", &[js("({ id: 1, secret: 'SECRET-MARKER-DOC' })")]).await;
    assert!(!raw_holds(&name, "docs", "SECRET-MARKER-DOC").await, "documents are encrypted too");
    assert_eq!(field(&call(&docs, "get", &[1.into()]).await, "secret"), "SECRET-MARKER-DOC");
    assert_eq!(call(&b, "get", &["k1".into()]).await, "one", "another connection reads with the stored key");
    let changes = listen(&b, "change");
    call(&a, "shred", &[]).await;
    // From that moment: nothing readable, here or in b (which never heard of it yet), and nothing counted.
    for s in [&a, &b] {
        assert!(call(s, "get", &["k1".into()]).await.is_undefined());
        assert_eq!(num(&call(s, "count", &[]).await), 0.0);
        assert_eq!(json(&call(s, "entries", &[]).await), "[]");
    }
    let docs_b = call(&b, "collection", &["docs".into(), JsValue::UNDEFINED]).await;
    assert!(call(&docs_b, "get", &[1.into()]).await.is_undefined());
    assert_eq!(raw_records(&name).await.length(), 0, "removed, not only unreadable");
    assert_eq!(raw_store(&name, "meta", "getAll").await.iter().filter(|r| !field(r, "until").is_undefined()).count(), 0, "no key left");
    // Written after: under a new key, readable everywhere.
    call(&b, "set", &["k3".into(), "three".into()]).await;
    assert_eq!(call(&a, "get", &["k3".into()]).await, "three");
    assert!(eventually(|| changes.iter().any(|d| field(&d, "op") == "clear")).await, "views and watches hear it as a clear");
    // shred() on a store without encryption is refused: it would only clear it.
    let plain = db_name("shredplain");
    let p = open_manual(&plain).await;
    let e = try_call(&p, "shred", &[]).await.unwrap_err();
    assert_error(&e, "TypeError", &["shred()", "is not encrypted", "clear()"]);
    destroy(&name).await;
    destroy(&plain).await;
}

#[wasm_bindgen_test]
async fn a_tampered_or_moved_ciphertext_is_an_error_naming_the_key() {
    let name = db_name("tamper");
    let s = open_encrypted(&name, "({ autoReap: false, encryption: true })").await;
    call(&s, "setMany", &[js("[['a', 'alpha'], ['b', 'beta']]")]).await;
    // Flip a byte of a's ciphertext; give b a's record (valid ciphertext, wrong record).
    let src = format!(
        r#"new Promise((resolve, reject) => {{
            const open = indexedDB.open({name:?});
            open.onsuccess = () => {{
              const db = open.result;
              const tx = db.transaction("entries", "readwrite");
              const st = tx.objectStore("entries");
              const all = st.getAll();
              all.onsuccess = () => {{
                const a = all.result.find((r) => r.k === "a"), b = all.result.find((r) => r.k === "b");
                const moved = {{ ...b, v: a.v }};
                const flipped = new Uint8Array(a.v.ct.slice(0)); flipped[0] ^= 1;
                st.put({{ ...a, v: {{ ...a.v, ct: flipped.buffer }} }});
                st.put(moved);
              }};
              tx.oncomplete = () => {{ db.close(); resolve(); }};
              tx.onerror = () => reject(tx.error);
            }};
            open.onerror = () => reject(open.error);
        }})"#
    );
    resolve_js(js(&src)).await;
    for key in ["a", "b"] {
        let e = try_call(&s, "get", &[key.into()]).await.unwrap_err();
        let msg = message(&e);
        assert!(msg.contains(&format!("the value for key \"{key}\" cannot be decrypted")), "{msg}");
    }
    destroy(&name).await;
}

async fn resolve_js(p: JsValue) {
    wasm_bindgen_futures::JsFuture::from(js_sys::Promise::from(p)).await.expect("resolves");
}

#[wasm_bindgen_test]
async fn with_a_key_ttl_a_key_is_written_with_then_read_for_as_long_then_destroyed() {
    // keyTtl 0.5 s (times k, until the steps fit: issue 39): key 1 takes writes until 0.5 s,
    // reads until 1 s.
    scaled("keyttl", |k| async move {
        let name = db_name("keyttl");
        let born = now();
        let s = open_encrypted(&name, &format!("({{ autoReap: false, encryption: {{ keyTtl: {} }} }})", 0.5 * k)).await;
        call(&s, "set", &["old".into(), "1".into()]).await;
        // Key 1 was made by now, at the latest.
        let made = now();
        let docs = call(&s, "collection", &["docs".into(), JsValue::UNDEFINED]).await;
        call(&docs, "put", &[js("({ id: 'd1' })")]).await;
        sleep((350.0 * k) as u32).await;
        call(&s, "set", &["late".into(), "2".into(), js("({ ttl: 3600 })")]).await;
        in_time(born + 500.0 * k, "the late write while key 1 takes writes")?;
        sleep((250.0 * k) as u32).await;
        assert!(now() >= made + 500.0 * k, "key 1 no longer takes writes");
        call(&s, "set", &["new".into(), "3".into()]).await;
        let ids: Vec<f64> = raw_records(&name).await.iter().map(|r| num(&field(&field(&r, "v"), "x"))).collect();
        assert_eq!(ids.iter().filter(|&&x| x == ids[0]).count(), 2, "old and late under key 1, new under key 2: {ids:?}");
        let late = call(&s, "get", &["late".into()]).await;
        in_time(born + 1000.0 * k, "the read while key 1 reads")?;
        assert_eq!(late, "2", "a value written late in its key's life is still read");
        sleep((500.0 * k) as u32).await;
        for gone in ["old", "late"] {
            assert!(call(&s, "get", &[gone.into()]).await.is_undefined(), "{gone}: its key expired like an entry");
        }
        assert_eq!(call(&s, "get", &["new".into()]).await, "3");
        // A key expires like an entry: a reaper pass removes what it encrypted, then the key.
        let expired = listen(&s, "expired");
        call(&s, "reap", &[]).await;
        assert_eq!(json(&call(&s, "keys", &[]).await), r#"["new"]"#, "what key 1 encrypted went with it");
        assert_eq!(num(&call(&s, "count", &[]).await), 1.0);
        assert_eq!(raw_store(&name, "docs", "getAll").await.length(), 0);
        assert_eq!(raw_store(&name, "meta", "getAll").await.iter().filter(|r| !field(r, "until").is_undefined()).count(), 1, "only key 2 left");
        assert!(eventually(|| expired.length() > 0).await);
        let detail = expired.get(0);
        assert_eq!(json(&field(&detail, "keys")), r#"["late","old"]"#);
        assert_eq!(json(&field(&detail, "collections")), r#"{"docs":["d1"]}"#);
        destroy(&name).await;
        Ok(())
    })
    .await;
    let e = try_open(&db_name("keyttlbad"), js("({ encryption: { keyTtl: 0 } })")).await.unwrap_err();
    assert_error(&e, "RangeError", &["encryption.keyTtl 0"]);
    let e = try_open(&db_name("cryptbad2"), js("({ encryption: 'yes' })")).await.unwrap_err();
    assert_error(&e, "TypeError", &["encryption \"yes\"", "true, or { keyTtl }"]);
    let e = try_open(&db_name("cryptbad3"), js("({ encryption: true, archiveFor: 60 })")).await.unwrap_err();
    assert_error(&e, "TypeError", &["encryption cannot be combined with onExpire or archiveFor"]);
}

#[wasm_bindgen_test]
async fn export_gives_plaintext_and_import_encrypts() {
    let (from, to) = (db_name("cryptexport"), db_name("cryptimport"));
    let s = open_encrypted(&from, "({ autoReap: false, encryption: true })").await;
    call(&s, "set", &["k".into(), js("({ note: 'SECRET-MARKER-EXPORT', at: new Date(0) })"), js("({ ttl: 600 })")]).await;
    let snapshot = call(&s, "export", &[]).await;
    let entries: Array = field(&snapshot, "entries").unchecked_into();
    assert_eq!(entries.length(), 1);
    assert_eq!(field(&field(&entries.get(0), "value"), "note"), "SECRET-MARKER-EXPORT", "a snapshot holds plain values");
    let t = open_encrypted(&to, "({ autoReap: false, encryption: true })").await;
    call(&t, "import", &[snapshot]).await;
    assert!(!raw_holds(&to, "entries", "SECRET-MARKER-EXPORT").await, "imported encrypted");
    let back = call(&t, "get", &["k".into()]).await;
    assert!(Reflect::get(&back, &"at".into()).unwrap().is_instance_of::<js_sys::Date>());
    destroy(&from).await;
    destroy(&to).await;
}

#[wasm_bindgen_test]
async fn two_connections_making_the_first_key_at_once_share_one() {
    let name = db_name("cryptrace");
    let (a, b) = (open_encrypted(&name, "({ autoReap: false, encryption: true })").await, open_encrypted(&name, "({ autoReap: false, encryption: true })").await);
    let (x, y) = futures_join(call(&a, "set", &["from-a".into(), "A".into()]), call(&b, "set", &["from-b".into(), "B".into()])).await;
    assert!(x.is_undefined() && y.is_undefined());
    for s in [&a, &b] {
        assert_eq!(json(&call(s, "getMany", &[js("['from-a', 'from-b']")]).await), r#"["A","B"]"#, "each reads what both wrote");
    }
    assert_eq!(raw_store(&name, "meta", "getAll").await.iter().filter(|r| !field(r, "until").is_undefined()).count(), 1, "one key");
    destroy(&name).await;
}
