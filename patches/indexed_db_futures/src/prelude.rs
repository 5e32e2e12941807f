//! Things to `use::*`.

pub use crate::build::*;
pub use crate::future::PollUnpinned;
pub use crate::query_source::QuerySource;
