#!/usr/bin/env python3
"""Checks report JSON files against docs/report-schema.json (JSON Schema 2020-12).

    scripts/check-report-schema.py REPORT.json [REPORT.json ...]

Exit status 0 when every file matches, 1 when one does not (each error is printed with its JSON path),
2 on bad usage or a missing python3-jsonschema (Debian package python3-jsonschema).
"""
import json
import pathlib
import sys

try:
    import jsonschema
except ImportError:
    print("check-report-schema: python3-jsonschema is not installed (apt-get install python3-jsonschema)",
          file=sys.stderr)
    sys.exit(2)

SCHEMA = pathlib.Path(__file__).resolve().parent.parent / "docs" / "report-schema.json"


def main(paths):
    if not paths:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    schema = json.loads(SCHEMA.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    failed = False
    for path in paths:
        try:
            report = json.loads(pathlib.Path(path).read_text())
        except (OSError, ValueError) as error:
            print(f"{path}: cannot read: {error}")
            failed = True
            continue
        for error in sorted(validator.iter_errors(report), key=lambda e: list(e.absolute_path)):
            where = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
            print(f"{path}: {where}: {error.message}")
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
