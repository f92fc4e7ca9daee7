#!/usr/bin/env python3
"""Checks the config's JSON Schema (`gpusynth config-schema`) as an editor uses it.

  config_schema_check.py SCHEMA.json CONFIG.yaml...

The schema must be a valid draft 2020-12 schema; every config given must validate, and
each of a set of broken copies of the first (an unknown key, a number out of range, a
choice not accepted, a model's parameter out of range or unknown) must not; a dataset's
`column: 2` and `bin: 1` (numbers the parsers read as text) and `bin: 250ms` pass, `bin:
5 parsecs` does not. YAML is read
as YAML 1.2's core schema reads it (an editor's language server does; PyYAML's 1.1 would
read the characteristic OFF as false and 1e300 as text).
"""
import copy
import json
import re
import sys

import jsonschema
import yaml


class Yaml12Loader(yaml.SafeLoader):
    """SafeLoader with YAML 1.2 core booleans and floats."""


for first, resolvers in list(Yaml12Loader.yaml_implicit_resolvers.items()):
    Yaml12Loader.yaml_implicit_resolvers[first] = [
        (tag, rx) for tag, rx in resolvers if tag not in ("tag:yaml.org,2002:bool", "tag:yaml.org,2002:float")]
Yaml12Loader.add_implicit_resolver("tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
                                   list("tTfF"))
Yaml12Loader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"),
    list("-+0123456789."))


def broken_copies(config):
    """(what, config) pairs that a schema checking every key must refuse."""
    out = []
    c = copy.deepcopy(config)
    c["no_such_key"] = 1
    out.append(("an unknown top-level key", c))
    c = copy.deepcopy(config)
    c["compression"] = 10
    out.append(("compression = 10 (0 to 9)", c))
    c = copy.deepcopy(config)
    c["backend"] = "gpu"
    out.append(("backend = gpu (auto, cpu, cuda)", c))
    if config.get("ensembles"):
        c = copy.deepcopy(config)
        c["ensembles"][0]["replicas"] = 0
        out.append(("an ensemble's replicas = 0", c))
        c = copy.deepcopy(config)
        c["ensembles"][0]["params"]["no_such_param"] = 1
        out.append(("a parameter its model lacks", c))
        c = copy.deepcopy(config)
        c["ensembles"][0]["workload"] = {"v": 0}
        out.append(("workload.v = 0 (> 0)", c))
    return out


def dataset_variants(configs):
    """(what, config, valid) variants of the first config with datasets: scalars the parsers read as text."""
    config = next((c for c in configs if c.get("datasets")), None)
    if config is None:
        return []
    out = []
    c = copy.deepcopy(config)
    c["datasets"][0]["column"] = 2
    c["datasets"][0]["bin"] = 1
    out.append(("a dataset's column: 2 and bin: 1 (numbers, read as text)", c, True))
    c = copy.deepcopy(config)
    c["datasets"][0]["bin"] = "5 parsecs"
    out.append(("a dataset's bin: 5 parsecs", c, False))
    c = copy.deepcopy(config)
    c["datasets"][0]["bin"] = "250ms"
    out.append(("a dataset's bin: 250ms", c, True))
    return out


def main(argv):
    schema = json.load(open(argv[1]))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    failures = []
    configs = []
    for path in argv[2:]:
        config = yaml.load(open(path), Loader=Yaml12Loader)
        configs.append(config)
        for error in validator.iter_errors(config):
            failures.append(f"{path}: {'/'.join(map(str, error.absolute_path))}: {error.message[:200]}")
    for what, config in broken_copies(configs[0]):
        if validator.is_valid(config):
            failures.append(f"{argv[2]} with {what} passes the schema")
    variants = dataset_variants(configs)
    for what, config, valid in variants:
        if validator.is_valid(config) != valid:
            failures.append(f"a config with {what} {'fails' if valid else 'passes'} the schema")
    for failure in failures:
        print(failure, file=sys.stderr)
    print(f"{len(configs)} configs valid, {len(broken_copies(configs[0]))} broken copies refused, "
          f"{len(variants)} dataset variants as the parser reads them" if not failures else f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
