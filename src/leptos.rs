//! The Leptos hook (feature `leptos`): [`use_entry`], a key of a [`TtlStore`] as a signal that
//! follows [`TtlStore::watch`], and its setter. No polling: the signal changes when a write (in
//! any tab) or the key's expiry comes.

use ::leptos::prelude::*;
use ::leptos::task::spawn_local;
use futures_core::Stream;
use send_wrapper::SendWrapper;
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::{Expiry, Key, TtlStore};

/// A key of `store` as a Leptos signal, and a setter for it.
///
/// The signal is `None` until the key's value is read, then follows it: every write, in this
/// tab or another on the same database, and `None` at the moment the entry expires or is
/// deleted. It is `None` under server-side rendering and until hydration (the watch starts in
/// an effect, and effects run only in the browser). Watching stops when the owner (the
/// component) is cleaned up.
///
/// The setter writes: `set(Some(value), expiry)`, or `set(None, _)` to delete; the signal shows
/// the write when it is committed. A write that fails is reported on the console
/// (`console.error`) with the error's message.
///
/// ```no_run
/// # #[cfg(target_arch = "wasm32")]
/// # mod app {
/// use std::time::Duration;
/// use leptos::prelude::*;
/// use idb_ttl::{leptos::use_entry, Expiry, TtlStore};
///
/// #[component]
/// fn Banner(store: TtlStore) -> impl IntoView {
///     let (banner, set_banner) = use_entry::<String>(&store, "banner");
///     view! {
///         <p>{move || banner.get().unwrap_or_else(|| "no banner".into())}</p>
///         <button on:click=move |_| set_banner(Some("hello".into()), Expiry::ttl(Duration::from_secs(60)))>
///             "Show for a minute"
///         </button>
///     }
/// }
/// # }
/// ```
pub fn use_entry<T>(store: &TtlStore, key: impl Into<Key>) -> (Signal<Option<T>>, impl Fn(Option<T>, Expiry) + Clone + Send + Sync + 'static)
where
    T: Serialize + DeserializeOwned + Clone + Send + Sync + 'static,
{
    let key = key.into();
    let (value, set_value) = signal(None::<T>);
    let watched = SendWrapper::new(store.clone());
    let watched_key = key.clone();
    Effect::new(move |_| {
        let mut changes = watched.watch::<T>(watched_key.clone());
        ::leptos::reactive::spawn_local_scoped_with_cancellation(async move {
            while let Some(v) = std::future::poll_fn(|cx| std::pin::Pin::new(&mut changes).poll_next(cx)).await {
                set_value.set(v);
            }
        });
    });
    let writer = SendWrapper::new(store.clone());
    let set = move |new: Option<T>, expiry: Expiry| {
        let (store, key) = ((*writer).clone(), key.clone());
        spawn_local(async move {
            let done = match new {
                Some(v) => store.set(key, &v, expiry).await,
                None => store.delete(key).await.map(|_| ()),
            };
            if let Err(e) = done {
                web_sys::console::error_1(&format!("idb-ttl use_entry: {e}").into());
            }
        });
    };
    (value.into(), set)
}
