# shellcheck shell=bash
# fleet.bash: deploy/ansible/calibrate.yml on an inventory of localhost (the local
# connection, no become), for the tests of the package and the playbook.
#   fleet_setup                 Ansible's configuration, state and inventory under $T (tmpdir)
#   playbook N ARGS...          the playbook with ARGS: its output in $T/run-N.log, status in $rc
#   said N                      the host's report line ("localhost: cost table 1 (...)")
#   recap N                     its recap's "changed=C failed=F"
#   task N NAME                 what the role's task NAME did: ok, changed, skipping, fatal
PB=deploy/ansible/calibrate.yml
fleet_setup() {
	export ANSIBLE_CONFIG=$T/ansible.cfg ANSIBLE_HOME=$T/ansible ANSIBLE_LOCAL_TEMP=$T/ansible/local \
		ANSIBLE_REMOTE_TEMP=$T/ansible/remote ANSIBLE_NOCOLOR=1 ANSIBLE_RETRY_FILES_ENABLED=0
	: >"$ANSIBLE_CONFIG"
	printf '%s\n' '[probecost]' \
		'localhost ansible_connection=local ansible_become=false ansible_python_interpreter=/usr/bin/python3' \
		>"$T/inventory.ini"
	mkdir -p "$T/tmp"
}
playbook() {
	TMPDIR=$T/tmp ansible-playbook -i "$T/inventory.ini" "$PB" "${@:2}" >"$T/run-$1.log" 2>&1
	rc=$?
	[ "$rc" = 0 ] || tail -30 "$T/run-$1.log" | sed 's/^/# /'
}
said() { sed -n 's/^ *"\(localhost: .*\)"$/\1/p' "$T/run-$1.log"; }
recap() { sed -n 's/^localhost *: .*\(changed=[0-9]*\).*\(failed=[0-9]*\).*/\1 \2/p' "$T/run-$1.log"; }
task() { sed -n "/^TASK \[probecost : $2\] /{n;s/:.*//p;}" "$T/run-$1.log"; }
