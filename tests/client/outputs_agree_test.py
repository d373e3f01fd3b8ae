#!/usr/bin/env python3
"""Every output of the same two jobs says the same counts and verdict (issue 26, "Counts with one definition each").

A real migrate-server (embedded PostgreSQL, one in-process worker with the translate and validate roles) runs two
jobs of different shape: the bundled examples/cuda-vector-stats (no targets: translated only), and a small tree
written here with one finding fixed automatically (HB102's lane mask), one open error (HB504, nvidia-smi with its
options in a script), one open warning (HB406, a system fence), one error in code the build does not compile (HB201, inline PTX in an
#if branch not taken: listed, never open) and a hipforge.yaml that builds it for gfx90a, names one test
(compile-only here: the build runs, the test does not) and gives its own gate definition (builds, findings).

For each job the test reads `migrate-cli report` as text, JSON, JUnit and SARIF; `status --json` and `list --json`
(GetJob, ListJobs through the CLI); the gRPC GetReport and GetJob answers themselves (tests/client/grpc_unary.py:
GetReport's counts are fields of their own); and the dashboard API (`/api/v1/jobs/{id}`, its `/findings`, `/tests`
and `/report`). Each output is turned into the quantities it shows, and every output showing a quantity must show
the same value: verdict level and sentence, gate status and sentence, open errors, open warnings, auto-fixed, total
findings, files translated / total, CUDA files translated / total, lines changed, engineer hours (as shown, one
decimal), tests passed / failed / not run, the rules JUnit fails (those with an open error), and the gate definition
used (default, the repository's hipforge.yaml `gate:` -- the small tree has one -- or the team's), which the text,
JSON, JUnit, SARIF and the dashboard must each name.
OUTPUTS_AGREE_DUMP=DIR writes each job's quantities per output and its text report there.

usage: outputs_agree_test.py MIGRATE_SERVER MIGRATE_CLI SOURCE_DIR
"""
import decimal
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ElementTree

import grpc_unary
from server_harness import Failure, Server, check

EXAMPLE = "examples/cuda-vector-stats"

# The second job's tree: what each file is there for is in the module docstring.
SMALL_TREE = {
    "src/kernel.cu": """#include <cuda_runtime.h>
#include <cstdio>
#define USE_PTX_FENCE 0

__global__ void sum_pairs(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  v += __shfl_xor_sync(0xffffffff, v, 1);
#if USE_PTX_FENCE
  asm volatile("brkpt;");  // no HIP equivalent: HB201 stays, in code the build drops
#endif
  __threadfence_system();
  if (i < n) out[i] = v;
}

int main() {
  float *in = nullptr, *out = nullptr;
  cudaMalloc(&in, 256 * sizeof(float));
  cudaMalloc(&out, 256 * sizeof(float));
  sum_pairs<<<1, 256>>>(in, out, 256);
  cudaDeviceSynchronize();
  std::printf("done\\n");
  return 0;
}
""",
    # A query with nvidia-smi's own options: renamed to amd-smi, but the options are left for a person (open).
    "scripts/run.sh": "#!/bin/sh\nnvidia-smi --query-gpu=name --format=csv\n./sum_pairs\n",
    "README.md": "A small CUDA program for the outputs_agree test.\n",
    # Built for gfx90a by the validate worker (compile-only here: the test is not run), so the verdict is `builds`.
    "hipforge.yaml": """version: 1
targets: [gfx90a]
gate: [builds, findings]
build:
  commands:
    - hipcc --offload-arch=${ARCH} -O1 src/kernel.cu -o ${BUILD_DIR}/sum_pairs
tests:
  commands:
    - name: sums
      run: ${BUILD_DIR}/sum_pairs
""",
}
SMALL_EXPECTED = {"auto_fixed": 1, "open_errors": 1, "open_warnings": 1, "inactive": 1,
                  "gate_definition": "repository"}  # its hipforge.yaml's gate:
# The example has no gate of its own, and team "agree" sets none.
EXAMPLE_EXPECTED = {"gate_definition": "default"}
# Outputs that must name the gate definition used (issue 26: only the JSON report's definition.source did).
NAME_THE_GATE_DEFINITION = ("text", "json", "junit", "sarif", "dashboard job")


def shown_hours(hours):
    """Hours as every output shows them: one decimal, half away from zero (JavaScript's toFixed(1) on the exact
    double, the dashboard's rendering)."""
    if hours is None:
        return None
    return str(decimal.Decimal(hours).quantize(decimal.Decimal("0.1"), rounding=decimal.ROUND_HALF_UP))


class Cli:
    def __init__(self, server):
        self.server = server

    def run(self, *args, ok=(0, 3)):
        """stdout of a command that succeeded; 3 is a job that ended failed (where no toolchain builds the small
        tree, say): its outputs must agree all the same."""
        done = subprocess.run([self.server.cli_bin, *args], env=self.server.env(), capture_output=True, text=True,
                              timeout=600)
        check(done.returncode in ok, f"migrate-cli {' '.join(args)} exited {done.returncode}:\n{done.stderr}")
        return done.stdout


class Dashboard:
    def __init__(self, server):
        self.base = "http://" + server.http_address
        self.token = server.token

    def get(self, path):
        request = urllib.request.Request(self.base + path, headers={"Authorization": "Bearer " + self.token})
        with urllib.request.urlopen(request, timeout=60) as answer:
            return json.loads(answer.read())

    def findings(self, job):
        found, token = [], ""
        while True:
            after = "&page_token=" + urllib.parse.quote(token) if token else ""
            page = self.get(f"/api/v1/jobs/{job}/findings?page_size=500{after}")
            found += page["findings"]
            token = page.get("next_page_token", "")
            if not token:
                return found


# ---- each output, turned into the quantities it shows ------------------------------------------------------------

def from_text(text):
    shown = {}
    verdict = re.search(r"^Verdict: (.*)$", text, re.M)
    check(verdict, "text report: no Verdict line")
    shown["verdict_sentence"] = verdict.group(1)
    shown["verdict_level"] = verdict.group(1).split(";")[0].split(":")[0].split(" on ")[0].replace(" ", "_")
    gate = re.search(r"^Gate: ((\w+).*)$", text, re.M)
    check(gate, "text report: no Gate line")
    shown["gate_sentence"], shown["gate_status"] = gate.group(1), gate.group(2)
    definition = re.search(r"\((\w+) definition\b", gate.group(1))
    check(definition, "text report: the Gate line names no definition: " + gate.group(1))
    shown["gate_definition"] = definition.group(1)
    translation = re.search(r"^Translation: (\d+) files, (\d+) translated, (\d+) fallback.*?, (\d+) lines changed$",
                            text, re.M)
    check(translation, "text report: no Translation line")
    shown["files_total"] = int(translation.group(1))
    shown["files_translated"] = int(translation.group(2)) + int(translation.group(3))
    shown["lines_changed"] = int(translation.group(4))
    cuda = re.search(r"^  CUDA files: (\d+) translated.*\((\d+) CUDA files\)$", text, re.M)
    if cuda:
        shown["cuda_files_translated"], shown["cuda_files"] = int(cuda.group(1)), int(cuda.group(2))
    fixed = re.search(r"^Fixed automatically: (none|(\d+) findings?)$", text, re.M)
    check(fixed, "text report: no 'Fixed automatically' line")
    shown["auto_fixed"] = int(fixed.group(2) or 0)
    left = re.search(r"^Left for a person: (none|(\d+) errors?, (\d+) warnings?, (\d+) notes?)$", text, re.M)
    check(left, "text report: no 'Left for a person' line")
    shown["open_errors"] = int(left.group(2) or 0)
    shown["open_warnings"] = int(left.group(3) or 0)
    inactive = re.search(r"^In code the build does not compile \(not charged\): (\d+) findings?$", text, re.M)
    open_notes = int(left.group(4) or 0)
    shown["inactive"] = int(inactive.group(1)) if inactive else 0
    shown["findings_total"] = (shown["auto_fixed"] + shown["open_errors"] + shown["open_warnings"] + open_notes +
                               shown["inactive"])
    effort = re.search(r"^Effort left: (none|([\d.]+) h)", text, re.M)
    check(effort, "text report: no 'Effort left' line")
    shown["engineer_hours"] = "0.0" if effort.group(1) == "none" else effort.group(2)
    tests = re.search(r"^Tests:(.*?)(?=^\S)", text + "\nEND", re.M | re.S)
    if tests:
        statuses = re.findall(r"^  .*?: (passed|failed|timed_out|not_run)", tests.group(1), re.M)
        shown["tests_passed"] = statuses.count("passed")
        shown["tests_failed"] = statuses.count("failed") + statuses.count("timed_out")
        shown["tests_not_run"] = statuses.count("not_run")
    return shown


def open_findings(findings, severity):
    return sum(1 for f in findings if f.get("severity") == severity and not f.get("auto_fixed")
               and not f.get("inactive"))


def inactive_findings(findings):
    return sum(1 for f in findings if f.get("inactive") and not f.get("auto_fixed"))


def from_json(document):
    """The report document, counted by docs/report.md's definitions (auto-fixed and inactive findings are not
    open)."""
    findings = document.get("findings", [])
    totals = document["translation"]["totals"]
    verdict = document.get("verdict")
    tests = document.get("tests", [])
    shown = {
        "findings_total": len(findings),
        "auto_fixed": sum(1 for f in findings if f.get("auto_fixed")),
        "open_errors": open_findings(findings, "error"),
        "open_warnings": open_findings(findings, "warning"),
        "inactive": inactive_findings(findings),
        "files_total": totals["files"],
        "files_translated": totals["translated"] + totals["fallback"],
        "cuda_files": totals["cuda_files"],
        "cuda_files_translated": totals["cuda_files_translated"],
        "lines_changed": totals["lines_changed"],
        "engineer_hours": shown_hours(document.get("effort", {}).get("engineer_hours", 0)),
        "tests_passed": sum(1 for t in tests if t["status"] == "passed"),
        "tests_failed": sum(1 for t in tests if t["status"] in ("failed", "timed_out")),
        "tests_not_run": sum(1 for t in tests if t["status"] == "not_run"),
    }
    check(verdict is not None, "report JSON: no verdict")
    check("gate" in document, "report JSON: no gate")
    shown["verdict_level"] = verdict["level"]
    shown["gate_status"] = document["gate"]["status"]
    shown["gate_definition"] = document["gate"]["definition"]["source"]
    # The files' own entries: the totals are their sums.
    files = document["translation"]["files"]
    check(len(files) == totals["files"], f"report JSON: {len(files)} file entries, totals.files {totals['files']}")
    check(sum(f.get("lines_changed", 0) for f in files) == totals["lines_changed"],
          "report JSON: totals.lines_changed is not the sum of the files' lines_changed")
    return shown


def from_junit(xml_text):
    root = ElementTree.fromstring(xml_text)
    suites = {suite.get("name"): suite for suite in root.findall("testsuite")}
    shown = {}
    analysis = suites.get("hipforge.analysis")
    if analysis is not None:
        # One case per rule, failing when the rule has an open error: the failing rules are the open errors' rules.
        shown["rules_failing"] = sorted(case.get("name") for case in analysis.findall("testcase")
                                        if case.find("failure") is not None)
    translation = suites.get("hipforge.translation")
    if translation is not None:
        shown["files_total"] = len(translation.findall("testcase"))
    tests = suites.get("hipforge.tests")
    cases = tests.findall("testcase") if tests is not None else []
    shown["tests_failed"] = sum(1 for c in cases if c.find("failure") is not None or c.find("error") is not None)
    shown["tests_not_run"] = sum(1 for c in cases if c.find("skipped") is not None
                                 and c.find("skipped").get("message") == "not run")
    shown["tests_passed"] = len(cases) - shown["tests_failed"] - sum(1 for c in cases if c.find("skipped") is not None)
    for suite in root.findall("testsuite"):
        for prop in suite.iter("property"):
            name = prop.get("name")
            if name == "hipforge.verdict":
                shown["verdict_level"] = prop.get("value")
            elif name == "hipforge.verdictSentence":
                shown["verdict_sentence"] = prop.get("value")
            elif name == "hipforge.gate":
                shown["gate_status"] = prop.get("value")
            elif name == "hipforge.gateSentence":
                shown["gate_sentence"] = prop.get("value")
            elif name == "hipforge.gateDefinition":
                shown["gate_definition"] = prop.get("value")
    return shown


def from_sarif(sarif):
    run = sarif["runs"][0]
    results = run["results"]
    open_results = [r for r in results if not r.get("suppressions")]
    shown = {
        "findings_total": len(results),
        "auto_fixed": sum(1 for r in results if r.get("properties", {}).get("autoFixed")),
        "inactive": sum(1 for r in results if r.get("properties", {}).get("inactive")
                        and not r.get("properties", {}).get("autoFixed")),
        "open_errors": sum(1 for r in open_results if r["level"] == "error"),
        "open_warnings": sum(1 for r in open_results if r["level"] == "warning"),
        "rules_failing": sorted({r["ruleId"] for r in open_results if r["level"] == "error"}),
    }
    properties = run.get("properties", {})
    for key, name in (("hipforge.verdict", "verdict_level"), ("hipforge.verdictSentence", "verdict_sentence"),
                      ("hipforge.gate", "gate_status"), ("hipforge.gateSentence", "gate_sentence"),
                      ("hipforge.gateDefinition", "gate_definition")):
        if key in properties:
            shown[name] = properties[key]
    return shown


def from_job_message(job):
    """GetJob / ListJobs (`status --json`, `list --json`): the progress counters are the CUDA files."""
    shown = {"cuda_files": job.get("files_total", 0), "cuda_files_translated": job.get("files_translated", 0)}
    shown["input_files"] = job.get("input_files", 0)  # counted by the server at submit (migration 0014)
    return shown


class Grpc:
    """MigrationService's unary calls as the server answers them, read field by field (job.proto,
    migration_service.proto): the numbers an API client gets without the CLI."""

    def __init__(self, server):
        self.address = server.address
        self.metadata = [("authorization", "Bearer " + server.token)]

    def call(self, method, job):
        answer = grpc_unary.unary_call(self.address, "/hipforge.v1.MigrationService/" + method,
                                       grpc_unary.encode_string(1, job), self.metadata)
        fields = grpc_unary.decode(answer)
        return lambda number, default=0: fields.get(number, [default])[0]


def from_get_report(field):
    """hipforge.v1.Report: 16 the document (hipforge.v1.ReportDocument), 4 translation, 5-7 findings left by severity, 10-11 tests, 12 hours,
    14 findings fixed, 15 findings in code the build does not compile."""
    translation = grpc_unary.decode(field(4, b""))
    total = lambda number: translation.get(number, [0])[0]
    return {
        "open_errors": field(5), "open_warnings": field(6), "auto_fixed": field(14), "inactive": field(15),
        "findings_total": field(5) + field(6) + field(7) + field(14) + field(15),
        "files_total": total(1), "files_translated": total(2) + total(3), "lines_changed": total(6),
        "tests_passed": field(10), "tests_failed": field(11),
        "engineer_hours": shown_hours(field(12, 0.0)),
    }


def from_dashboard_job(detail):
    summary = detail["summary"]
    translation = summary.get("translation") or {}
    shown = {
        "findings_total": summary["findings"],
        "auto_fixed": summary["auto_fixed"],
        "open_errors": summary["open_errors"],
        "open_warnings": summary["open_warnings"],
        "inactive": summary.get("inactive"),
        "files_total": translation.get("files"),
        "files_translated": translation.get("translated", 0) + translation.get("fallback", 0),
        "cuda_files": translation.get("cuda_files"),
        "cuda_files_translated": translation.get("cuda_files_translated"),
        "lines_changed": translation.get("lines_changed"),
        "engineer_hours": shown_hours(summary.get("engineer_hours") or 0),
        "tests_passed": summary["tests_passed"],
        "tests_failed": summary["tests_failed"],
        "gate_status": summary["gate"]["status"],
        "gate_definition": (summary["gate"].get("definition") or {}).get("source"),
        "verdict_level": (summary.get("verdict") or {}).get("level"),
    }
    if "tests_not_run" in summary:
        shown["tests_not_run"] = summary["tests_not_run"]
    return {k: v for k, v in shown.items() if v is not None}


def from_dashboard_tests(tests):
    statuses = [t["status"] for t in tests]
    return {"tests_passed": statuses.count("passed"),
            "tests_failed": statuses.count("failed") + statuses.count("timed_out"),
            "tests_not_run": statuses.count("not_run")}


def from_dashboard_findings(findings):
    return {
        "findings_total": len(findings),
        "auto_fixed": sum(1 for f in findings if f["auto_fixed"]),
        "open_errors": open_findings(findings, "error"),
        "open_warnings": open_findings(findings, "warning"),
        "inactive": inactive_findings(findings),
    }


# ---- one job ---------------------------------------------------------------------------------------------------

def outputs_of(job, cli, dashboard, grpc):
    """{output name: {quantity: value}} for every output of `job`."""
    document = json.loads(cli.run("report", job, "--format", "json"))
    get_report, get_job = grpc.call("GetReport", job), grpc.call("GetJob", job)
    # The CLI's JSON is GetReport's document through the one conversion and serializer (common/report/report_proto.cc);
    # the document itself is checked field for field against the schema by report_proto_tests.
    check(len(get_report(16, b"")) > 0 and document.get("job_id") == job, f"job {job}: GetReport sent no document")
    views = {
        "text": from_text(cli.run("report", job, "--format", "text")),
        "json": from_json(document),
        "junit": from_junit(cli.run("report", job, "--format", "junit")),
        "sarif": from_sarif(json.loads(cli.run("report", job, "--format", "sarif"))),
        "status": from_job_message(json.loads(cli.run("status", job, "--json"))),
        "grpc GetReport": from_get_report(get_report),
        "grpc GetJob": {"cuda_files": get_job(9), "cuda_files_translated": get_job(10)},
        "list": from_job_message(next(j for j in json.loads(cli.run("list", "--all", "--json"))["jobs"]
                                      if j["id"] == job)),
        "dashboard job": from_dashboard_job(dashboard.get(f"/api/v1/jobs/{job}")),
        "dashboard findings": from_dashboard_findings(dashboard.findings(job)),
        "dashboard tests": from_dashboard_tests(dashboard.get(f"/api/v1/jobs/{job}/tests")["tests"]),
    }
    # The JUnit analysis suite fails exactly the rules that have an open error.
    views["json"]["rules_failing"] = sorted({f["rule_id"] for f in document.get("findings", [])
                                             if f["severity"] == "error" and not f.get("auto_fixed")
                                             and not f.get("inactive")})
    # The dashboard's whole report is the CLI's JSON document (which adds the job id).
    served = dashboard.get(f"/api/v1/jobs/{job}/report")
    check(dict(served, job_id=document.get("job_id")) == document,
          f"job {job}: the dashboard's /report differs from `report --format json`")
    return views, document


def disagreements(views):
    """Per quantity, the outputs that show it and what they show, where they differ."""
    by_quantity = {}
    for output, shown in views.items():
        for quantity, value in shown.items():
            by_quantity.setdefault(quantity, {})[output] = value
    return {quantity: outputs for quantity, outputs in sorted(by_quantity.items())
            if len({json.dumps(value) for value in outputs.values()}) > 1}


def submit(cli, tree, name):
    # Targets from the tree's hipforge.yaml, if any (none: translated only); exit 4 is --fail-on's, not used here.
    out = cli.run("submit", tree, "--wait", "--no-git", "--name", name, "--wait-timeout", "600")
    return out.splitlines()[0].strip()


def write_small_tree(where):
    for path, text in SMALL_TREE.items():
        full = os.path.join(where, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as out:
            out.write(text)
    return len(SMALL_TREE)


def main():
    server_bin, cli_bin, source_dir = sys.argv[1:4]
    dump = os.environ.get("OUTPUTS_AGREE_DUMP")  # a directory: every output's quantities are written there
    scratch = tempfile.mkdtemp(prefix="hipforge-outputs-agree-")
    os.chmod(scratch, 0o755)  # the embedded PostgreSQL runs as user postgres when we are root
    server, failed = None, []
    try:
        server = Server(os.path.abspath(server_bin), os.path.abspath(cli_bin), scratch, team="agree",
                        roles="translate,validate")
        cli, dashboard, grpc = Cli(server), Dashboard(server), Grpc(server)
        small = os.path.join(scratch, "small")
        small_files = write_small_tree(small)
        example = os.path.join(source_dir, EXAMPLE)
        example_files = sum(len(files) for _, _, files in os.walk(example))
        for name, tree, files, expected in (("example", example, example_files, EXAMPLE_EXPECTED),
                                            ("small", small, small_files, SMALL_EXPECTED)):
            job = submit(cli, tree, "outputs-agree-" + name)
            views, document = outputs_of(job, cli, dashboard, grpc)
            views["the tree"] = {"input_files": files}
            if expected:
                views["what the tree holds"] = dict(expected)
            if dump:
                os.makedirs(dump, exist_ok=True)
                with open(os.path.join(dump, name + ".json"), "w") as out:
                    json.dump({"views": views, "report": document}, out, indent=1, sort_keys=True)
                with open(os.path.join(dump, name + ".txt"), "w") as out:
                    out.write(cli.run("report", job) + cli.run("status", job))
            for output in NAME_THE_GATE_DEFINITION:
                if "gate_definition" not in views[output]:
                    failed.append(f"{name} job {job}: {output} does not name the gate definition used")
            differ = disagreements(views)
            for quantity, outputs in differ.items():
                failed.append(f"{name} job {job}: {quantity}: " +
                              ", ".join(f"{output} {json.dumps(value)}" for output, value in outputs.items()))
            if not differ:
                print(f"PASS {name} job {job}: " + ", ".join(
                    f"{q}={json.dumps(v)}" for q, v in sorted(views["json"].items())), flush=True)
        check(not failed, "outputs disagree:\n  " + "\n  ".join(failed))
    except Failure as failure:
        print("FAIL " + str(failure), flush=True)
        if server is not None:
            print("server log (tail):\n" + server.log_text())
        return 1
    finally:
        if server is not None:
            server.stop()
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
