//! A banner every tab shows: `use_entry::<String>(&store, "banner")` gives the signal, which
//! follows every tab's writes and turns `None` at the banner's expiry. A form writes it with a
//! ttl in seconds. `<html data-state="ready">` once the store is open (for the test).

use std::time::Duration;

use idb_ttl::leptos::use_entry;
use idb_ttl::{Expiry, Options, TtlStore};
use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::prelude::*;

#[component]
fn Banner(store: TtlStore) -> impl IntoView {
    let (banner, set_banner) = use_entry::<String>(&store, "banner");
    let text = NodeRef::<leptos::html::Input>::new();
    let ttl = NodeRef::<leptos::html::Input>::new();
    let remove = set_banner.clone();
    let save = move |_| {
        let (Some(text), Some(ttl)) = (text.get(), ttl.get()) else { return };
        let secs: f64 = ttl.value().parse().unwrap_or(60.0);
        set_banner(Some(text.value()), Expiry::ttl(Duration::from_secs_f64(secs)));
    };
    view! {
        <p data-testid="banner">{move || banner.get().unwrap_or_else(|| "(no banner)".to_owned())}</p>
        <input data-testid="text" node_ref=text value="hello" />
        <input data-testid="ttl" node_ref=ttl value="60" />
        <button data-testid="set" on:click=save>"Show it"</button>
        <button data-testid="clear" on:click=move |_| remove(None, Expiry::default())>"Remove it"</button>
    }
}

#[component]
fn App() -> impl IntoView {
    let (store, set_store) = signal_local(None::<TtlStore>);
    spawn_local(async move {
        match TtlStore::open("leptos-example", Options::default().auto_reap(false)).await {
            Ok(s) => {
                set_store.set(Some(s));
                if let Some(html) = document().document_element() {
                    let _ = html.set_attribute("data-state", "ready");
                }
            }
            Err(e) => leptos::logging::error!("idb-ttl: {e}"),
        }
    });
    view! {
        <main>
            <h1>"idb-ttl + Leptos"</h1>
            {move || store.get().map(|store| view! { <Banner store /> })}
        </main>
    }
}

/// Mounts the app.
#[wasm_bindgen(start)]
pub fn main() {
    leptos::mount::mount_to_body(App);
}
