//! Paths into the game's canonical-state schema: whether a path an engine declares unmodelled
//! (`players[*].skil_gauge`) names a place in a result at all, so that a misspelt one is refused
//! before anything runs. This follows the JSON Schema that schemars writes (`$ref`, `$defs`,
//! `anyOf`, `oneOf`, `allOf`, `properties`, `additionalProperties`, `items`, `prefixItems`) and
//! checks no value: a case's `then` is checked by [`super::then_schema`].

use serde_json::Value;

/// One step of a path into a result, for [`path_exists`]: a field name, any field (`*`, the
/// keys of a map such as CEDEC's tiles), or a list element.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathStep<'p> {
    Key(&'p str),
    AnyKey,
    Element,
}

/// Whether `path` names a place in what a step case's `then` is matched against: a field of
/// the state `schema` describes (through `$ref`, `anyOf`, maps and lists), or `prompts`,
/// `last_replies`, `facts` or `outcome` beside it. Used to refuse a path nobody can mean (a
/// misspelt field an engine declares unmodelled) before anything runs.
pub fn path_exists(schema: &Value, path: &[PathStep<'_>]) -> bool {
    match path.first() {
        Some(PathStep::Key("prompts" | "last_replies")) => {
            path[1..].iter().all(|s| *s == PathStep::Element) && path.len() <= 2
        }
        Some(PathStep::Key("facts")) => true,
        Some(PathStep::Key("outcome")) if property(schema, "outcome").is_none() => true,
        _ => Walker { root: schema }.has(schema, path),
    }
}

struct Walker<'s> {
    root: &'s Value,
}

/// The schema of `key` in an object schema, if it names it.
fn property<'s>(schema: &'s Value, key: &str) -> Option<&'s Value> {
    schema.get("properties").and_then(|p| p.get(key))
}

impl<'s> Walker<'s> {
    /// Follows `$ref`s into `$defs`.
    fn resolve(&self, mut schema: &'s Value) -> &'s Value {
        for _ in 0..32 {
            let Some(reference) = schema.get("$ref").and_then(Value::as_str) else {
                return schema;
            };
            let target = reference
                .strip_prefix("#/")
                .map(|p| p.split('/').try_fold(self.root, |v, k| v.get(k)));
            match target {
                Some(Some(next)) => schema = next,
                _ => return schema,
            }
        }
        schema
    }

    /// Whether `path` leads somewhere from `schema`.
    fn has(&self, schema: &'s Value, path: &[PathStep<'_>]) -> bool {
        let schema = self.resolve(schema);
        let Some((step, rest)) = path.split_first() else {
            return true;
        };
        for key in ["anyOf", "oneOf", "allOf"] {
            if let Some(Value::Array(alternatives)) = schema.get(key) {
                if alternatives.iter().any(|a| self.has(a, path)) {
                    return true;
                }
            }
        }
        let extra = schema.get("additionalProperties").filter(|e| e.is_object());
        match step {
            PathStep::Key(key) => {
                property(schema, key).is_some_and(|field| self.has(field, rest))
                    || extra.is_some_and(|e| self.has(e, rest))
            }
            PathStep::AnyKey => {
                extra.is_some_and(|e| self.has(e, rest))
                    || schema
                        .get("properties")
                        .and_then(Value::as_object)
                        .is_some_and(|p| p.values().any(|field| self.has(field, rest)))
            }
            PathStep::Element => {
                let prefix = schema.get("prefixItems").and_then(Value::as_array);
                prefix.is_some_and(|p| p.iter().any(|each| self.has(each, rest)))
                    || schema
                        .get("items")
                        .filter(|s| s.is_object())
                        .is_some_and(|each| self.has(each, rest))
            }
        }
    }
}
