//! The symbol and relocation tables of an object as JSON, for `read --json
//! --symbols` / `--relocations` (the same rows the text report prints).

use hsaco_elf::CodeObject;
use serde_json::{json, Value};

/// `.symtab` and `.dynsym`: `[ { "table", "symbols": [ { "index", "name", "value",
/// "size", "type", "bind", "visibility", "shndx" } ] } ]`, or `{ "error" }` per table.
pub fn symbols_json(co: &CodeObject<'_>) -> Value {
    let mut tables = Vec::new();
    for table in [co.elf.symtab(), co.elf.dynsym()] {
        let table = match table {
            Ok(Some(t)) => t,
            Ok(None) => continue,
            Err(e) => {
                tables.push(json!({ "error": e.to_string() }));
                continue;
            }
        };
        let symbols: Vec<Value> = table
            .iter()
            .map(|s| match s {
                Ok(s) => json!({
                    "index": s.index, "name": s.name_str(), "value": s.value, "size": s.size,
                    "type": s.st_type().to_string(), "bind": s.bind().to_string(),
                    "visibility": s.visibility().to_string(), "shndx": s.shndx,
                }),
                Err(e) => json!({ "error": e.to_string() }),
            })
            .collect();
        tables.push(json!({ "table": table.section().name_str(), "symbols": symbols }));
    }
    Value::Array(tables)
}

/// Every relocation table: `[ { "table", "relocations": [ { "offset", "type",
/// "symbol_index", "symbol", "addend" (null in SHT_REL) } ] } ]`.
pub fn relocations_json(co: &CodeObject<'_>) -> Value {
    let mut tables = Vec::new();
    for table in co.elf.relocation_tables() {
        let table = match table {
            Ok(t) => t,
            Err(e) => {
                tables.push(json!({ "error": e.to_string() }));
                continue;
            }
        };
        let symbols = co
            .elf
            .section(table.symbol_table_index())
            .and_then(|s| co.elf.symbol_table(&s));
        let relocations: Vec<Value> = table
            .iter()
            .map(|r| {
                let name = match &symbols {
                    Ok(t) if r.symbol != 0 => t
                        .get(r.symbol as usize)
                        .ok()
                        .map(|s| s.name_str().into_owned()),
                    _ => None,
                };
                json!({
                    "offset": r.offset, "type": r.r_type.to_string(), "symbol_index": r.symbol,
                    "symbol": name, "addend": r.has_addend.then_some(r.addend),
                })
            })
            .collect();
        tables.push(json!({ "table": table.section().name_str(), "relocations": relocations }));
    }
    Value::Array(tables)
}
