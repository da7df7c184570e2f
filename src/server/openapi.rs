//! The OpenAPI 3.1 document served at `/openapi.json`.

/// The document, as JSON text.
pub(crate) fn document() -> String {
    serde_json::json!({"openapi": "3.1.0", "info": {"title": "Arbiter", "version": env!("CARGO_PKG_VERSION")}, "paths": {}}).to_string()
}
