#!/usr/bin/env python3
"""docs/ci.md's GitHub Actions and GitLab CI jobs against a real migrate-server.

The YAML blocks are read from the doc itself (so it cannot drift from what is tested); their shell steps run in a
git checkout of examples/cuda-vector-stats with MIGRATE_SERVER and MIGRATE_TOKEN of a migrate-server started here
(embedded PostgreSQL, one in-process translate worker). Checked: the SARIF and JUnit files exist and parse, every
uploaded path exists, and the job's exit code is the one its report calls for (docs/cli.md, Exit codes).
`act` is not installable here, so GitHub's own `uses:` steps are not run; the files they upload are checked.

usage: ci_snippets_test.py MIGRATE_SERVER MIGRATE_CLI SOURCE_DIR
"""
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree

import yaml

from server_harness import Failure, Server, check

EXAMPLE = "examples/cuda-vector-stats"
SEVERITY_RANK = {"error": 0, "warning": 1, "note": 2}
FAIL_ON_LIMIT = {"none": -1, "error": 0, "warning": 1, "note": 2}
VERDICT_RANK = {"failed": 0, "translated_only": 1, "builds": 2, "behaviour_checked": 3}


def read_snippets(doc_path):
    """The GitHub workflow and the GitLab job: the doc's ```yaml blocks, told apart by their shape."""
    text = open(doc_path, encoding="utf-8").read()
    github, gitlab = None, None
    for block in re.findall(r"^```yaml\n(.*?)^```", text, re.S | re.M):
        document = yaml.safe_load(block)
        if "jobs" in document:
            github = document
        elif any(isinstance(job, dict) and "script" in job for job in document.values()):
            gitlab = document
    check(github is not None, f"{doc_path}: no GitHub Actions workflow (a ```yaml block with jobs:)")
    check(gitlab is not None, f"{doc_path}: no GitLab CI job (a ```yaml block with a job that has script:)")
    return github, gitlab


def make_checkout(source_dir, where):
    """The example as CI checks it out: a git work tree with one commit."""
    repo = os.path.join(where, "repo")
    shutil.copytree(os.path.join(source_dir, EXAMPLE), repo)
    git = ["git", "-c", "user.name=ci", "-c", "user.email=ci@example.invalid", "-c", "init.defaultBranch=main"]
    for command in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "example"]):
        subprocess.run(git + command, cwd=repo, check=True, capture_output=True)
    return repo


def run_shell(script, cwd, env, label):
    """A step's shell as both CI systems run it: bash, errexit and pipefail."""
    print(f"--- {label}:\n{script}", flush=True)
    done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=1200)
    sys.stdout.write(done.stdout[-2000:])
    sys.stdout.write(done.stderr[-4000:])
    print(f"--- {label}: exit {done.returncode}", flush=True)
    return done.returncode


def expected_exit(cli_bin, repo, env, submit_line):
    """The exit code docs/cli.md gives for this job: from its state, its report and the submit's flags."""
    args = shlex.split(submit_line)
    option = lambda name, default: args[args.index(name) + 1] if name in args else default
    fail_on, require = option("--fail-on", "none"), option("--require", "none")
    # The job the snippet just submitted: the team's newest (the snippets run one after the other).
    listed = subprocess.run([cli_bin, "list", "--page-size", "1", "--json"], env=env, capture_output=True, text=True)
    job = json.loads(listed.stdout)["jobs"][0]["id"]
    status = subprocess.run([cli_bin, "status", job, "--json"], cwd=repo, env=env, capture_output=True, text=True)
    state = json.loads(status.stdout)["state"]
    if state == "JOB_STATE_FAILED":
        return 3, "the job failed"
    if state == "JOB_STATE_CANCELLED":
        return 5, "the job was cancelled"
    check(state == "JOB_STATE_SUCCEEDED", f"job {job} ended {state}")
    fetched = subprocess.run([cli_bin, "report", job, "--format", "json"], cwd=repo, env=env,
                             capture_output=True, text=True)
    report = json.loads(fetched.stdout)
    open_findings = [f for f in report.get("findings", []) if not f.get("auto_fixed") and not f.get("inactive")
                     and SEVERITY_RANK.get(f.get("severity", "warning"), 1) <= FAIL_ON_LIMIT[fail_on]]
    if open_findings:
        return 4, f"{len(open_findings)} open finding(s) at or above --fail-on {fail_on}"
    level = (report.get("verdict") or {}).get("level", "translated_only")
    if require != "none" and VERDICT_RANK[level] < VERDICT_RANK[require]:
        return 10, f"verdict {level} is below --require {require}"
    return 0, f"verdict {level}, no open finding at or above --fail-on {fail_on}"


def check_sarif(path):
    check(os.path.isfile(path), f"no SARIF file {path}")
    sarif = json.load(open(path))
    check(sarif.get("version") == "2.1.0", f"{path}: SARIF version {sarif.get('version')}")
    check(sarif["runs"][0]["tool"]["driver"]["name"], f"{path}: no tool name")
    check(isinstance(sarif["runs"][0].get("results"), list), f"{path}: no results array")


def check_junit(path):
    check(os.path.isfile(path), f"no JUnit file {path}")
    root = ElementTree.parse(path).getroot()
    check(root.tag == "testsuites" and len(root.findall("testsuite")) > 0, f"{path}: not JUnit XML ({root.tag})")


def check_paths(repo, paths, what):
    for path in paths:
        check(os.path.exists(os.path.join(repo, path)), f"{what} uploads {path}, which the steps did not write")


def submit_line(scripts):
    lines = [line for script in scripts for line in script.splitlines() if "migrate-cli submit" in line]
    check(len(lines) == 1, f"expected one migrate-cli submit line, found {lines}")
    return re.split(r"[>)]|\|\|", lines[0][lines[0].index("migrate-cli submit"):])[0]


def run_github(workflow, source_dir, server, scratch):
    (job,) = workflow["jobs"].values()
    check(set(job.get("env", {})) == {"MIGRATE_SERVER", "MIGRATE_TOKEN"}, f"workflow env: {job.get('env')}")
    repo = make_checkout(source_dir, os.path.join(scratch, "github"))
    env = dict(server.env(), RUNNER_TEMP=os.path.join(scratch, "github", "runner-temp"))
    os.makedirs(env["RUNNER_TEMP"])
    exit_code, uploads = 0, []
    for step in job["steps"]:
        if "uses" in step:
            uploads.append(step)
            continue
        if exit_code != 0 and "always()" not in str(step.get("if", "")):
            continue
        code = run_shell(step["run"], repo, env, "GitHub step " + step.get("name", "?"))
        exit_code = exit_code or code
    for step in uploads:
        if step["uses"].startswith("github/codeql-action/upload-sarif"):
            check_sarif(os.path.join(repo, step["with"]["sarif_file"]))
        elif step["uses"].startswith("actions/upload-artifact"):
            check_paths(repo, step["with"]["path"].split(), "upload-artifact")
    check_junit(os.path.join(repo, "hipforge-junit.xml"))
    return repo, exit_code, submit_line([step["run"] for step in job["steps"] if "run" in step])


def run_gitlab(pipeline, source_dir, server, scratch, edit=lambda line: line, name="gitlab"):
    """`edit`: a change the doc suggests, applied to each script line."""
    (job,) = [job for job in pipeline.values() if isinstance(job, dict) and "script" in job]
    check("MIGRATE_SERVER" in job.get("variables", {}), f"job variables: {job.get('variables')}")
    repo = make_checkout(source_dir, os.path.join(scratch, name))
    script = [edit(line) for line in job["script"]]
    exit_code = run_shell("\n".join(script), repo, server.env(), "GitLab script")
    artifacts = job["artifacts"]
    check(artifacts.get("when") == "always", "artifacts are not kept for a failed job")
    check_paths(repo, artifacts["paths"], "artifacts")
    check_sarif(os.path.join(repo, "hipforge.sarif"))
    check_junit(os.path.join(repo, artifacts["reports"]["junit"]))
    return repo, exit_code, submit_line(script)


def main():
    server_bin, cli_bin, source_dir = sys.argv[1:4]
    github, gitlab = read_snippets(os.path.join(source_dir, "docs", "ci.md"))
    scratch = tempfile.mkdtemp(prefix="hipforge-ci-snippets-")
    os.chmod(scratch, 0o755)  # the embedded PostgreSQL runs as user postgres when we are root
    server = None
    try:
        server = Server(os.path.abspath(server_bin), os.path.abspath(cli_bin), scratch)
        # The doc's variant "drop --fail-on error to gate on the verdict alone": on this server (no validate
        # worker, no target) the verdict is translated only, below --require builds.
        verdict_only = lambda line: line.replace(" --fail-on error", "")
        runs = (("GitHub Actions", lambda: run_github(github, source_dir, server, scratch), None),
                ("GitLab CI", lambda: run_gitlab(gitlab, source_dir, server, scratch), None),
                ("GitLab CI without --fail-on", lambda: run_gitlab(gitlab, source_dir, server, scratch, verdict_only,
                                                                   "gitlab-verdict"), 10))
        for name, run, must_be in runs:
            repo, got, submit = run()
            want, why = expected_exit(server.cli_bin, repo, server.env(), submit)
            check(got == want, f"{name}: the job exited {got}, its report calls for {want} ({why})")
            check(must_be is None or got == must_be, f"{name}: exit {got} ({why}), expected {must_be}")
            print(f"PASS {name}: exit {got} ({why}); SARIF and JUnit parse; uploads exist", flush=True)
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
