//! Validation diagnostics: data with stable kebab-case codes; rendering is separate.
