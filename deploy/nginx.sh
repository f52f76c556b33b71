#!/bin/sh
# Start nginx in front of rummykit processes, as an ordinary user, from deploy/nginx.conf.
#
#   deploy/nginx.sh [--port 8080] [--host 127.0.0.1] [--live 127.0.0.1:8081] [--prefix DIR] SERVER...
#   deploy/nginx.sh --prefix DIR --stop
#
# SERVER is host:port of a rummykit process (rummykit serve --workers N listens on N
# consecutive ports). --live is where the processes post live versions (default: the port
# after --port, on 127.0.0.1): start them with RUMMYKIT_LIVE_FRONT=http://ADDRESS/_live/pub.
# nginx's pub/sub module must be installed (Debian: libnginx-mod-nchan; elsewhere set
# NCHAN_MODULE to its file). Run again with the same prefix, it reloads the running nginx with the
# new list (a process added or removed). Everything nginx writes goes under DIR (default
# ./nginx-rummykit): its configuration, logs, pid file and temporary files; nothing of the
# system's nginx is used.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
port=8080
host=127.0.0.1
prefix=$PWD/nginx-rummykit
stop=no
live=
while [ $# -gt 0 ]; do
    case "$1" in
        --port) port=$2; shift 2 ;;
        --host) host=$2; shift 2 ;;
        --prefix) prefix=$2; shift 2 ;;
        --live) live=$2; shift 2 ;;
        --stop) stop=yes; shift ;;
        -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
        --*) echo "unknown option $1" >&2; exit 2 ;;
        *) break ;;
    esac
done
nginx=$(command -v nginx || echo /usr/sbin/nginx)
mkdir -p "$prefix"
prefix=$(cd "$prefix" && pwd)
if [ "$stop" = yes ]; then
    exec "$nginx" -p "$prefix" -c "$prefix/nginx.conf" -e "$prefix/logs/error.log" -s quit
fi
if [ $# -eq 0 ]; then
    echo "name at least one rummykit process (host:port)" >&2
    exit 2
fi
live=${live:-127.0.0.1:$((port + 1))}
nchan=${NCHAN_MODULE:-/usr/lib/nginx/modules/ngx_nchan_module.so}
if [ ! -f "$nchan" ]; then
    echo "nginx's pub/sub module is missing ($nchan): install libnginx-mod-nchan" >&2
    exit 2
fi
mkdir -p "$prefix/logs" "$prefix/tmp"
servers=""
for server in "$@"; do
    servers="$servers        server $server max_fails=1 fail_timeout=10s;\n"
done
sed -e "s#@PREFIX@#$prefix#g" -e "s#@LISTEN@#$host:$port#g" -e "s#@LIVE@#$live#g" \
    -e "s#@NCHAN@#$nchan#g" "$here/nginx.conf" |
    awk -v servers="$servers" '{ if ($0 == "@SERVERS@") printf "%s", servers; else print }' \
    >"$prefix/nginx.conf"
if [ "$(id -u)" = 0 ]; then
    # As root nginx's workers would run as nobody: they write temporary files here.
    chown -R nobody "$prefix/tmp"
fi
"$nginx" -t -q -p "$prefix" -c "$prefix/nginx.conf" -e "$prefix/logs/error.log"
if [ -f "$prefix/nginx.pid" ] && kill -0 "$(cat "$prefix/nginx.pid")" 2>/dev/null; then
    # Already running here: the new list of processes, without dropping a connection.
    "$nginx" -p "$prefix" -c "$prefix/nginx.conf" -e "$prefix/logs/error.log" -s reload
    echo "nginx reloaded (pid file $prefix/nginx.pid) in front of: $*"
    exit 0
fi
"$nginx" -p "$prefix" -c "$prefix/nginx.conf" -e "$prefix/logs/error.log"
echo "nginx on http://$host:$port/ (pid file $prefix/nginx.pid) in front of: $*"
echo "the processes need RUMMYKIT_LIVE_FRONT=http://$live/_live/pub"
