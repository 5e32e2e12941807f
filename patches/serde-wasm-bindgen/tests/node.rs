mod common;
