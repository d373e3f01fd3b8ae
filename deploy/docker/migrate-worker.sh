#!/bin/sh
# Debian 12's loader and libraries for the worker only (not exported to the builds it runs).
exec /opt/hipforge/lib/ld-linux-x86-64.so.2 --library-path /opt/hipforge/lib /opt/hipforge/bin/migrate-worker "$@"
