#!/usr/bin/env python3
"""Renders and checks deploy/kubernetes as far as the tools here allow (no cluster: kubectl needs one even
for --dry-run=client, so the field check uses the API models of python3-kubernetes instead).

Schema: every field of every core/apps object is one the Kubernetes API (python3-kubernetes' models) knows,
with the right JSON type. Structure: every document names its kind and namespace, Services select pods that
exist, validate pools request one amd.com/gpu, select nodes by the AMD labeller's device ids of their own arch
and set no visibility variable, and every KEDA ScaledObject scales an existing Deployment with a PostgreSQL
trigger for that arch. Binaries: each container's entrypoint (its Dockerfile) plus args uses
only flags and MIGRATE_* variables the built migrate-server/migrate-worker accept. Security: the server serves
TLS from a mounted Secret, every worker reads its pool's credential and the CA from mounted files, validate
credentials are per toolchain, no secret is an environment value, nothing privileged. Database: with
HIPFORGE_TEST_DATABASE_URL, the migrations are applied to a fresh schema, keda-readonly-role.sql creates the
read-only role, and each ScaledObject's query runs *as that role* (its own search_path, as KEDA connects)
against queued validate tasks (and the role is refused anything else).
"""
import glob
import json
import os
import re
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
# What the operator makes before applying (00-namespace.yaml, docs/operations.md): name -> keys.
OPERATOR_MADE = {("Secret", "hipforge-server-tls"): {"tls.crt", "tls.key"},
                 ("ConfigMap", "hipforge-ca"): {"ca.crt"},
                 ("Secret", "hipforge-worker-translate"): {"token"},
                 ("Secret", "hipforge-worker-validate-rocm-6.4"): {"token"}}
# Image (after REGISTRY/) -> its Dockerfile in deploy/docker.
DOCKERFILES = {"hipforge-server": "Dockerfile.server", "hipforge-postgres": "Dockerfile.postgres",
               "hipforge-translate-worker": "Dockerfile.translate-worker",
               "hipforge-validate-worker-rocm-6.4": "Dockerfile.validate-worker"}
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
    scaled = by_kind.get("ScaledObject", {})
    queries = {}
    for name, obj in scaled.items():
        target = obj["spec"]["scaleTargetRef"]["name"]
        check(target in pools, f"ScaledObject {name} scales {target}, not a validate pool")
        trigger = obj["spec"]["triggers"][0]
        check(trigger["type"] == "postgresql", f"ScaledObject {name}: trigger {trigger['type']}")
        auth = trigger["authenticationRef"]["name"]
        check(auth in by_kind.get("TriggerAuthentication", {}), f"ScaledObject {name}: no TriggerAuthentication {auth}")
        for ref in by_kind.get("TriggerAuthentication", {}).get(auth, {}).get("spec", {}).get("secretTargetRef", []):
            secret = by_kind.get("Secret", {}).get(ref["name"], {})
            check(ref["key"] in secret.get("stringData", {}) or ref["key"] in secret.get("data", {}),
                  f"TriggerAuthentication {auth}: Secret {ref['name']} has no key {ref['key']}")
        if target in pools:
            arch = pools[target]["spec"]["template"]["metadata"]["labels"]["arch"]
            check(f"'{arch}'" in trigger["metadata"]["query"], f"ScaledObject {name}: query is not about {arch}")
            queries[arch] = trigger["metadata"]["query"]
    check(set(queries) == set(DEVICE_IDS), f"KEDA queries for {sorted(queries)}")
    check_server_replicas(by_kind)
    return queries


def check_server_replicas(by_kind):
    """The server runs as a replica set (issue 27): 2+ replicas with artifacts in PostgreSQL and no shared volume,
    a readiness probe, and a PodDisruptionBudget keeping one of them through voluntary disruptions."""
    server = by_kind.get("Deployment", {}).get("migrate-server")
    check(server is not None, "no migrate-server Deployment")
    if server is None:
        return
    check(server["spec"].get("replicas", 1) >= 2, "migrate-server: fewer than 2 replicas")
    pod = server["spec"]["template"]["spec"]
    container = pod["containers"][0]
    args = container.get("args", [])
    check("--artifact-store" in args and args[args.index("--artifact-store") + 1] == "postgres",
          "migrate-server: replicas without --artifact-store postgres serve only their own artifacts")
    check(not any("persistentVolumeClaim" in v for v in pod.get("volumes", [])),
          "migrate-server: a PersistentVolumeClaim volume (ReadWriteOnce) cannot be shared by replicas")
    check("readinessProbe" in container, "migrate-server: no readiness probe")
    labels = server["spec"]["template"]["metadata"]["labels"]
    budgets = [b for b in by_kind.get("PodDisruptionBudget", {}).values()
               if b["spec"]["selector"]["matchLabels"].items() <= labels.items()]
    check(len(budgets) == 1 and budgets[0]["spec"].get("minAvailable", 0) >= 1,
          "migrate-server: no PodDisruptionBudget with minAvailable >= 1")


def check_schema(path, doc):
    """Every field is one the API model of the object's kind has, with a value of the model's type."""
    try:
        import kubernetes.client as models
    except ImportError:
        check(False, "python3-kubernetes is not installed (.ci/packages.txt): no schema check")
        return
    group, _, version = doc["apiVersion"].rpartition("/")
    if group.endswith("keda.sh"):
        return  # a CRD: check_structure checks what the scaler needs
    model = getattr(models, version.capitalize() + doc["kind"], None)
    check(model is not None, f"{path}: no Kubernetes API model for {doc['apiVersion']} {doc['kind']}")
    if model is not None:
        check_value(model.__name__, doc, f"{path}:{doc['kind']}/{doc['metadata'].get('name')}", models)


def check_value(type_name, value, where, models):
    if type_name == "object":  # IntOrString, RawExtension
        return
    scalar = {"str": str, "int": int, "bool": bool, "float": (int, float), "datetime": str, "date": str}
    if type_name in scalar:
        # Quantities (cpu: 4, amd.com/gpu: 1) are strings in the models; YAML numbers are accepted there.
        expected = (str, int, float) if type_name == "str" and re.search(r"\.(limits|requests)\.", where) else \
            scalar[type_name]
        check(isinstance(value, expected) and not (isinstance(value, bool) and type_name != "bool"),
              f"{where}: {value!r} is not {type_name}")
        return
    if type_name.startswith("list["):
        check(isinstance(value, list), f"{where}: not a list")
        for i, item in enumerate(value if isinstance(value, list) else []):
            check_value(type_name[5:-1], item, f"{where}[{i}]", models)
        return
    if type_name.startswith("dict("):
        inner = type_name[5:-1].split(", ", 1)[1]
        check(isinstance(value, dict), f"{where}: not a map")
        for key, item in (value if isinstance(value, dict) else {}).items():
            check_value(inner, item, f"{where}.{key}", models)
        return
    model = getattr(models, type_name)
    if not isinstance(value, dict):
        check(False, f"{where}: {type_name} is not a map")
        return
    fields = {json_name: model.openapi_types[attribute] for attribute, json_name in model.attribute_map.items()}
    for key, item in value.items():
        check(key in fields, f"{where}: {type_name} has no field {key!r}")
        if key in fields:
            check_value(fields[key], item, f"{where}.{key}", models)


def dockerfile_entrypoint(image):
    name = image.split("/", 1)[1].split(":")[0]
    dockerfile = DOCKERFILES.get(name)
    check(dockerfile is not None, f"image {image}: no Dockerfile in deploy/docker")
    if dockerfile is None:
        return None, {}
    text = open(os.path.join(ROOT, "deploy", "docker", dockerfile)).read()
    entry = re.search(r"^ENTRYPOINT (\[.*\])$", text, re.M)
    env = set(re.findall(r"\b(MIGRATE_[A-Z_]+)=", "\n".join(re.findall(r"^ENV .*(?:\\\n.*)*", text, re.M))))
    return json.loads(entry.group(1)) if entry else None, env


def binary_help(binary):
    """Flags and MIGRATE_* variables the built binary documents in --help; None when it is not built."""
    bin_dir = os.environ.get("HIPFORGE_BIN_DIR", os.path.join(ROOT, "build", "bin"))
    path = os.path.join(bin_dir, binary)
    if not os.access(path, os.X_OK):
        return None
    text = subprocess.run([path, "--help"], capture_output=True, text=True, timeout=30).stdout
    return set(re.findall(r"--[a-z][a-z0-9-]*", text)) | set(re.findall(r"\bMIGRATE_[A-Z_]+", text))


def containers(documents):
    for path, doc in documents:
        if doc["kind"] in ("Deployment", "StatefulSet"):
            spec = doc["spec"]["template"]["spec"]
            for container in spec["containers"]:
                yield doc["metadata"]["name"], spec, container


def check_binaries(documents):
    helps = {}
    for name, _, container in containers(documents):
        entrypoint, image_env = dockerfile_entrypoint(container["image"])
        if not entrypoint:
            check(entrypoint is not None, f"{name}: its image has no ENTRYPOINT")
            continue
        argv = entrypoint + container.get("args", [])
        env = {e["name"] for e in container.get("env", [])} | image_env
        program = os.path.basename(argv[0])
        if program == "postgres-entrypoint.sh":
            script = open(os.path.join(ROOT, "deploy", "docker", program)).read()
            for variable in env:
                check(variable in script, f"{name}: {program} does not read {variable}")
            continue
        binary = "migrate-worker" if program == "migrate-worker" else program
        if binary not in helps:
            helps[binary] = binary_help(binary)
        known = helps[binary]
        if known is None:
            check(False, f"{binary} is not built in HIPFORGE_BIN_DIR: flags unchecked")
            continue
        for flag in (a.split("=")[0] for a in argv[1:] if a.startswith("--")):
            check(flag in known, f"{name}: {binary} has no flag {flag}")
        for variable in (v for v in env if v.startswith("MIGRATE_")):
            check(variable in known, f"{name}: {binary} reads no {variable}")
        if binary == "migrate-worker":
            roles = [argv[i + 1] for i, a in enumerate(argv[:-1]) if a == "--role"]
            expected = "validate" if name.startswith("validate-worker-") else "translate"
            check(roles == [expected], f"{name}: worker roles {roles}, not [{expected}]")


def mounted_file(spec, container, path, defined):
    """The (kind, name, key) a path in the container reads, or None when no Secret/ConfigMap volume has it."""
    volumes = {v["name"]: v for v in spec.get("volumes", [])}
    for mount in container.get("volumeMounts", []):
        prefix = mount["mountPath"].rstrip("/") + "/"
        volume = volumes.get(mount["name"], {})
        if not path.startswith(prefix) or not ("secret" in volume or "configMap" in volume):
            continue
        kind, source = ("Secret", volume["secret"]) if "secret" in volume else ("ConfigMap", volume["configMap"])
        name = source.get("secretName") or source.get("name")
        relative = path[len(prefix):]
        items = {item["path"]: item["key"] for item in source.get("items", [])}
        key = items.get(relative) if items else relative
        check(key is not None, f"{path}: volume {mount['name']} maps no item to {relative}")
        keys = OPERATOR_MADE.get((kind, name), defined.get((kind, name)))
        check(keys is not None, f"{path}: {kind} {name} is neither in the manifests nor made by the operator")
        check(keys is None or key in keys, f"{path}: {kind} {name} has no key {key}")
        return kind, name, key
    return None


def check_security(documents):
    defined = {}
    for _, doc in documents:
        if doc["kind"] in ("Secret", "ConfigMap"):
            data = {**doc.get("data", {}), **doc.get("stringData", {})}
            defined[(doc["kind"], doc["metadata"]["name"])] = set(data)
    referenced = set()
    for name, spec, container in containers(documents):
        where = f"{name}/{container['name']}"
        context = container.get("securityContext", {})
        check(not context.get("privileged") and not context.get("capabilities", {}).get("add"),
              f"{where}: privileged or added capabilities")
        check(context.get("allowPrivilegeEscalation") is False, f"{where}: privilege escalation not refused")
        check(spec.get("securityContext", {}).get("runAsNonRoot") is True, f"{where}: may run as root")
        env = {}
        for e in container.get("env", []):
            check("valueFrom" not in e, f"{where}: {e['name']} takes a secret as an environment value")
            value = str(e.get("value", ""))
            check(not re.search(r"hf[tw]_|://[^/]*:[^/]*@|password=", value), f"{where}: {e['name']} holds a secret")
            env[e["name"]] = value
        files = {v: env[v] for v in env if v.endswith("_FILE") or v in ("MIGRATE_TLS_CA",)}
        args = container.get("args", [])
        for i, arg in enumerate(args[:-1]):
            if arg in ("--tls-cert", "--tls-key", "--tls-client-ca", "--token-file", "--tls-ca"):
                files[arg] = args[i + 1]
        for variable, path in files.items():
            found = mounted_file(spec, container, path, defined)
            check(found is not None, f"{where}: {variable}={path} is not a mounted Secret/ConfigMap file")
            if found:
                referenced.add(found[:2])
        image = container["image"]
        if "hipforge-server" in image:
            check("--tls-cert" in files and "--tls-key" in files, f"{where}: the server does not serve TLS")
            check("--insecure" not in args and "MIGRATE_INSECURE" not in env, f"{where}: --insecure")
            check("MIGRATE_DATABASE_URL_FILE" in files, f"{where}: no database URL file")
        if "worker" in image:
            check("MIGRATE_WORKER_TOKEN_FILE" in files, f"{where}: no worker credential file")
            check("MIGRATE_TLS_CA" in files, f"{where}: does not check the server's certificate")
            credential = mounted_file(spec, container, files.get("MIGRATE_WORKER_TOKEN_FILE", ""), defined)
            toolchain = re.search(r"validate-worker-(rocm-[0-9.]+)", image)
            expected = f"hipforge-worker-validate-{toolchain.group(1)}" if toolchain else "hipforge-worker-translate"
            check(credential is not None and credential[1] == expected,
                  f"{where}: credential {credential and credential[1]}, not {expected}")
    operator_made = {key for key in OPERATOR_MADE}
    check(operator_made <= referenced, f"operator-made objects nothing mounts: {sorted(operator_made - referenced)}")
    header = open(os.path.join(K8S, "00-namespace.yaml")).read()
    operations = open(os.path.join(ROOT, "docs", "operations.md")).read()
    for kind, name in operator_made:
        check(name in header, f"00-namespace.yaml does not list {kind} {name}")
        check(name in operations, f"docs/operations.md does not say how to make {kind} {name}")


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
            run = psql(as_role, query)  # the role's own search_path, as KEDA connects
            check(run.returncode == 0 and run.stdout.strip() == expected[arch],
                  f"KEDA query for {arch} as {role}: {run.stdout.strip()!r} {run.stderr.strip()}")
        run = psql(as_role, "SELECT payload FROM tasks")
        check(run.returncode != 0 and "permission denied" in run.stderr, f"{role} may read payloads: {run.stdout}")
        run = psql(as_role, "SELECT count(*) FROM jobs")
        check(run.returncode != 0 and "permission denied" in run.stderr, f"{role} may read jobs: {run.stdout}")
    finally:
        psql(url, f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        psql(url, f"DROP ROLE IF EXISTS {role}")


def main():
    documents = load()
    check(len(documents) >= 10, f"only {len(documents)} documents")
    for path, doc in documents:
        check_schema(path, doc)
    queries = check_structure(documents)
    check_binaries(documents)
    check_security(documents)
    check_database(queries)
    for failure in failures:
        print("FAIL:", failure)
    print(f"kubernetes_manifests_test: {len(documents)} documents, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
