"""A real migrate-server for Python tests: loopback gRPC and HTTP ports, an embedded PostgreSQL, one in-process
translate worker, and a token of one team (submit, read). Used by ci_snippets_test.py and outputs_agree_test.py."""
import os
import signal
import subprocess
import time


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


class Server:
    """migrate-server on loopback with an embedded PostgreSQL and one translate worker, and a team token."""

    def __init__(self, server_bin, cli_bin, scratch, team="ci", roles="translate"):
        self.cli_bin = cli_bin
        self.data = os.path.join(scratch, "data")
        self.log_path = os.path.join(scratch, "server.log")
        port_file = os.path.join(scratch, "port")
        args = [server_bin, "--listen", "127.0.0.1:0", "--http-listen", "127.0.0.1:0", "--data-dir", self.data,
                "--port-file", port_file, "--local-workers", "1", "--local-worker-roles", roles,
                "--embedded-durable", "false", "--log-level", "warn"]
        self.log = open(self.log_path, "w")
        self.process = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        self.address = "127.0.0.1:%d" % self._wait_for_port(port_file)
        # The HTTP port is written before the gRPC one (docs/dashboard.md, --http-port-file).
        self.http_address = "127.0.0.1:%d" % self._wait_for_port(port_file + ".http")
        created = subprocess.run([server_bin, "token", "create", "--team", team, "--scopes", "submit,read",
                                  "--data-dir", self.data], capture_output=True, text=True, timeout=120)
        check(created.returncode == 0, "token create failed: " + created.stderr)
        self.token = created.stdout.splitlines()[0].strip()
        self._wait_until_ready()

    def _wait_for_port(self, port_file):
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            check(self.process.poll() is None, "migrate-server exited during start-up:\n" + self.log_text())
            if os.path.exists(port_file):
                text = open(port_file).read().strip()
                if text.isdigit():
                    return int(text)
            time.sleep(0.3)
        raise Failure("migrate-server wrote no port file in 4 minutes:\n" + self.log_text())

    def _wait_until_ready(self):
        for _ in range(100):
            listed = subprocess.run([self.cli_bin, "list", "--page-size", "1"], env=self.env(), capture_output=True)
            if listed.returncode == 0:
                return
            time.sleep(0.3)
        raise Failure("migrate-cli list never succeeded:\n" + self.log_text())

    def env(self):
        env = dict(os.environ)
        for name in ("MIGRATE_TOKEN_FILE", "MIGRATE_TLS_CA", "MIGRATE_TLS_CERT", "MIGRATE_TLS_KEY"):
            env.pop(name, None)
        env.update(MIGRATE_SERVER=self.address, MIGRATE_TOKEN=self.token,
                   PATH=os.path.dirname(self.cli_bin) + os.pathsep + env.get("PATH", ""))
        return env

    def log_text(self):
        self.log.flush()
        return open(self.log_path, errors="replace").read()[-4000:]

    def stop(self):
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self.log.close()
