#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""this_table.py: print the id of this host's current cost table in the store, or nothing.

Run on the host (ansible.builtin.script), so that only the id travels back to the
controller, not every table of the fleet.  Its input is the environment: PROBECOST_FLEET,
JSON {"bin": PATH, "levels": [...], "keys": [...]}, and PROBECOST_DB and PGPASSFILE as
probecost reads them.  A table is this host's current one when it is complete, of this
host name (probecost stores gethostname()), at one of the levels, and its fingerprint
equals this machine's on the keys (the fields predict compares).  Exit 1 with probecost's
error when the store cannot be read.
"""
import json
import os
import socket
import subprocess
import sys


def probecost(spec, *args):
    return subprocess.run([spec["bin"], *args], capture_output=True, text=True, check=False)


def main():
    spec = json.loads(os.environ["PROBECOST_FLEET"])
    fp = probecost(spec, "env", "--format", "json")
    costs = probecost(spec, "costs", "--format", "json")
    if fp.returncode != 0 or (costs.returncode != 0 and "no store at" not in costs.stderr):
        sys.stderr.write((fp.stderr if fp.returncode else costs.stderr) or "probecost failed\n")
        return 1
    tables = json.loads(costs.stdout)["tables"] if costs.returncode == 0 else []
    keys = spec["keys"]
    here = json.loads(fp.stdout)["fields"]
    mine = {k: here.get(k) for k in keys}
    host = socket.gethostname()
    for t in tables:  # newest first
        fields = t["env"]["fields"]
        if (t["complete"] and t["host"] == host and t["level"] in spec["levels"]
                and {k: fields.get(k) for k in keys} == mine):
            print(t["id"])
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
