# The Python half of the models round trip (scripts/models/python.ts runs it next to the generated
# models.py): reads [{"id", "model", "value"}] from the file named by argv[1], decodes each value
# with its model (quicktype's <model>_from_dict), encodes it again (<model>_to_dict)
# and prints [{"id", "json"} | {"id", "error"}] as JSON. Comparing is the caller's job.
import json
import sys
import traceback

import models


def converters():
    """Model name without case or underscores -> (from_dict, to_dict), one pair per top-level type."""
    found = {}
    for name in dir(models):
        if not name.endswith("_from_dict"):
            continue
        stem = name[: -len("_from_dict")]
        key = stem.replace("_", "").lower()
        if key in found:
            raise SystemExit(f"two models answer to {key}")
        found[key] = (getattr(models, name), getattr(models, stem + "_to_dict"))
    return found


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        cases = json.load(f)
    pairs = converters()
    results = []
    for case in cases:
        pair = pairs.get(case["model"].lower())
        if pair is None:
            results.append({"id": case["id"], "error": f"no model named {case['model']}"})
            continue
        try:
            from_dict, to_dict = pair
            results.append({"id": case["id"], "json": to_dict(from_dict(case["value"]))})
        except Exception:  # a model that refuses a valid example is a finding, reported with its trace
            results.append({"id": case["id"], "error": traceback.format_exc(limit=3)})
    json.dump(results, sys.stdout)


main()
