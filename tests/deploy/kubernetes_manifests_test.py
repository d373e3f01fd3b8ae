#!/usr/bin/env python3
"""Renders and checks deploy/kubernetes as far as the tools here allow (no cluster, no kubectl in CI).

Structure: every document parses, names its kind and namespace, Services select pods that exist, validate
pools request one amd.com/gpu, select nodes by the AMD labeller's device ids of their own arch and set no
visibility variable, and every KEDA ScaledObject scales an existing Deployment with a PostgreSQL trigger
for that arch. Database: with HIPFORGE_TEST_DATABASE_URL, the migrations are applied to a fresh schema,
keda-readonly-role.sql creates the read-only role, and each ScaledObject's query runs *as that role* against
queued validate tasks (and the role is refused anything else).
"""
import glob
import os
import subprocess
import sys
import uuid

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
K8S = os.path.join(ROOT, "deploy", "kubernetes")
# AMD node labeller device ids (amd.com/gpu.device-id) per arch.
DEVICE_IDS = {"gfx90a": {"740c", "740f"}, "gfx942": {"74a0", "74a1", "74a5", "74b5"}}
VISIBILITY = {"ROCR_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES", "GPU_DEVICE_ORDINAL"}
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)


def load():
    documents = []
    for path in sorted(glob.glob(os.path.join(K8S, "*.yaml"))):
        with open(path) as f:
            for doc in yaml.safe_load_all(f):
                if doc is not None:
                    documents.append((os.path.basename(path), doc))
    return documents


def check_structure(documents):
    by_kind = {}
    for path, doc in documents:
        name = doc.get("metadata", {}).get("name")
        check(doc.get("apiVersion") and doc.get("kind") and name, f"{path}: apiVersion/kind/metadata.name")
        if doc.get("kind") != "Namespace":
            check(doc["metadata"].get("namespace") == "hipforge", f"{path}: {name} not in namespace hipforge")
        by_kind.setdefault(doc["kind"], {})[name] = doc
    workloads = {**by_kind.get("Deployment", {}), **by_kind.get("StatefulSet", {})}
    for name, service in by_kind.get("Service", {}).items():
        selector = service["spec"]["selector"]
        check(any(selector.items() <= w["spec"]["template"]["metadata"]["labels"].items() for w in workloads.values()),
              f"Service {name} selects no pods")
    for name, workload in workloads.items():
        template = workload["spec"]["template"]
        check(workload["spec"]["selector"]["matchLabels"].items() <= template["metadata"]["labels"].items(),
              f"{name}: selector does not match its pod template")
        for container in template["spec"]["containers"]:
            check(container.get("image"), f"{name}: container without image")
    pools = {n: d for n, d in by_kind.get("Deployment", {}).items() if n.startswith("validate-worker-")}
    check(set(pools) == {"validate-worker-gfx90a", "validate-worker-gfx942"}, f"validate pools: {sorted(pools)}")
    for name, pool in pools.items():
        arch = pool["spec"]["template"]["metadata"]["labels"]["arch"]
        spec = pool["spec"]["template"]["spec"]
        container = spec["containers"][0]
        check(container["resources"]["limits"].get("amd.com/gpu") == 1, f"{name}: amd.com/gpu limit is not 1")
        env = {e["name"] for e in container.get("env", [])}
        check(not (env & VISIBILITY), f"{name}: sets a visibility variable {env & VISIBILITY}")
        check("HSA_OVERRIDE_GFX_VERSION" not in env, f"{name}: HSA_OVERRIDE_GFX_VERSION on Instinct")
        terms = spec["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]["nodeSelectorTerms"]
        ids = set()
        for term in terms:
            for expression in term["matchExpressions"]:
                check(expression["key"] == "amd.com/gpu.device-id", f"{name}: selects on {expression['key']}")
                ids |= set(expression["values"])
        check(ids == DEVICE_IDS[arch], f"{name}: device ids {sorted(ids)} are not the {arch} ones")
        check("--role" in container["args"] and "validate" in container["args"], f"{name}: not a validate worker")
    scaled = by_kind.get("ScaledObject", {})
    queries = {}
    for name, obj in scaled.items():
        target = obj["spec"]["scaleTargetRef"]["name"]
        check(target in pools, f"ScaledObject {name} scales {target}, not a validate pool")
        trigger = obj["spec"]["triggers"][0]
        check(trigger["type"] == "postgresql", f"ScaledObject {name}: trigger {trigger['type']}")
        auth = trigger["authenticationRef"]["name"]
        check(auth in by_kind.get("TriggerAuthentication", {}), f"ScaledObject {name}: no TriggerAuthentication {auth}")
        if target in pools:
            arch = pools[target]["spec"]["template"]["metadata"]["labels"]["arch"]
            check(f"'{arch}'" in trigger["metadata"]["query"], f"ScaledObject {name}: query is not about {arch}")
            queries[arch] = trigger["metadata"]["query"]
    check(set(queries) == set(DEVICE_IDS), f"KEDA queries for {sorted(queries)}")
    return queries


def psql(url, sql=None, file=None, variables=(), options=""):
    argv = ["psql", url, "-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1"]
    for key, value in variables:
        argv += ["-v", f"{key}={value}"]
    argv += ["-f", file] if file else ["-c", sql]
    env = dict(os.environ, PGOPTIONS=options)
    return subprocess.run(argv, capture_output=True, text=True, env=env)


def check_database(queries):
    url = os.environ.get("HIPFORGE_TEST_DATABASE_URL")
    if not url:
        print("kubernetes_manifests_test: no HIPFORGE_TEST_DATABASE_URL; database checks skipped")
        return
    suffix = uuid.uuid4().hex[:8]
    schema, role = f"k8s_test_{suffix}", f"hipforge_keda_{suffix}"
    path = f"-csearch_path={schema}"
    try:
        run = psql(url, f"CREATE SCHEMA {schema}")
        check(run.returncode == 0, f"create schema: {run.stderr}")
        for migration in sorted(glob.glob(os.path.join(ROOT, "server", "sql", "migrations", "*.sql"))):
            run = psql(url, file=migration, options=path)
            check(run.returncode == 0, f"{os.path.basename(migration)}: {run.stderr}")
        run = psql(url, file=os.path.join(K8S, "keda-readonly-role.sql"), options=path,
                   variables=[("role", role), ("password", "'keda-test'"), ("schema", schema)])
        check(run.returncode == 0, f"keda-readonly-role.sql: {run.stderr}")
        run = psql(url, options=path, sql=(
            "INSERT INTO jobs (id, name, targets, input_digest) VALUES "
            "('00000000-0000-0000-0000-000000000001', 'a', '{gfx942}', repeat('a', 64)), "
            "('00000000-0000-0000-0000-000000000002', 'b', '{gfx942,gfx90a}', repeat('b', 64)); "
            "INSERT INTO tasks (job_id, kind, max_attempts, run_after, required_toolchain) VALUES "
            "('00000000-0000-0000-0000-000000000001', 'validate', 3, now(), "
            "'{\"targets\": [\"gfx942\"], \"hip_release\": \"\"}'), "
            "('00000000-0000-0000-0000-000000000002', 'validate', 3, now(), "
            "'{\"targets\": [\"gfx90a\", \"gfx942\"], \"hip_release\": \"6.4\"}'), "
            "('00000000-0000-0000-0000-000000000002', 'translate', 3, now(), NULL)"))
        check(run.returncode == 0, f"insert tasks: {run.stderr}")
        as_role = url.replace("postgres@", f"{role}:keda-test@", 1)
        expected = {"gfx942": "2", "gfx90a": "1"}
        for arch, query in queries.items():
            run = psql(as_role, query, options=path)
            check(run.returncode == 0 and run.stdout.strip() == expected[arch],
                  f"KEDA query for {arch} as {role}: {run.stdout.strip()!r} {run.stderr.strip()}")
        run = psql(as_role, "SELECT payload FROM tasks", options=path)
        check(run.returncode != 0 and "permission denied" in run.stderr, f"{role} may read payloads: {run.stdout}")
        run = psql(as_role, "SELECT count(*) FROM jobs", options=path)
        check(run.returncode != 0 and "permission denied" in run.stderr, f"{role} may read jobs: {run.stdout}")
    finally:
        psql(url, f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        psql(url, f"DROP ROLE IF EXISTS {role}")


def main():
    documents = load()
    check(len(documents) >= 10, f"only {len(documents)} documents")
    queries = check_structure(documents)
    check_database(queries)
    for failure in failures:
        print("FAIL:", failure)
    print(f"kubernetes_manifests_test: {len(documents)} documents, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
