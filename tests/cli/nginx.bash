# shellcheck shell=bash
# nginx.bash: a throwaway nginx for tests (and bench/openloop.sh) that measure it as a
# --service, on a loopback port, in the foreground, everything under one directory.
# nginx_site DIR PORT MASTER KEEPALIVE: DIR/index.html (a static page of 1 KiB) and
# DIR/nginx.conf serving DIR on 127.0.0.1:PORT, master_process MASTER (off: one process,
# so {pid} is the one that serves; on: a master and one worker, as in production),
# keepalive_requests KEEPALIVE; sets NGINX_SERVICE (the command to give --service).
# DIR is made readable by all: as root, nginx's workers serve as nobody.
nginx_site() {
	local dir=$1 port=$2 master=$3 keepalive=$4
	chmod 755 "$dir"
	for _ in $(seq 40); do echo "a line of a static page"; done > "$dir/index.html"
	cat > "$dir/nginx.conf" <<CONF
daemon off;
master_process $master;
worker_processes 1;
pid $dir/nginx.pid;
error_log stderr notice;
events { worker_connections 1024; }
http {
	access_log off;
	client_body_temp_path $dir/tmp;
	proxy_temp_path $dir/tmp;
	fastcgi_temp_path $dir/tmp;
	uwsgi_temp_path $dir/tmp;
	scgi_temp_path $dir/tmp;
	keepalive_requests $keepalive;
	server { listen 127.0.0.1:$port; root $dir; }
}
CONF
	# shellcheck disable=SC2034 # for the script that sources this
	NGINX_SERVICE="$(command -v nginx || echo /usr/sbin/nginx) -p $dir -c $dir/nginx.conf -e stderr"
}
