//! The symbol and relocation tables of an object as JSON, for `read --json
//! --symbols` / `--relocations` (the same rows the text report prints).

use hsaco_elf::elf::{RelocationTable, SymbolTable};
use hsaco_elf::CodeObject;
use serde_json::{json, Value};

/// The symbol table a relocation table refers to, for naming each relocation's symbol
/// (shared by the text and the JSON reports).
pub struct RelocationSymbols<'a>(hsaco_elf::Result<SymbolTable<'a>>);

impl<'a> RelocationSymbols<'a> {
    /// The symbol table of `table` (its `sh_link`).
    pub fn of(co: &CodeObject<'a>, table: &RelocationTable<'a>) -> Self {
        RelocationSymbols(
            co.elf
                .section(table.symbol_table_index())
                .and_then(|s| co.elf.symbol_table(&s)),
        )
    }

    /// The name of symbol `index`: `None` for symbol 0 or when the symbol table is
    /// unreadable, an error message for an index it does not have.
    pub fn name(&self, index: u32) -> Option<Result<String, String>> {
        match &self.0 {
            Ok(t) if index != 0 => Some(
                t.get(index as usize)
                    .map(|s| s.name_str().into_owned())
                    .map_err(|e| e.to_string()),
            ),
            _ => None,
        }
    }
}

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
        let symbols = RelocationSymbols::of(co, &table);
        let relocations: Vec<Value> = table
            .iter()
            .map(|r| {
                let name = symbols.name(r.symbol).and_then(Result::ok);
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
