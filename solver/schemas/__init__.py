"""JSON Schema files of every command's --json output (see docs/json.md)."""
