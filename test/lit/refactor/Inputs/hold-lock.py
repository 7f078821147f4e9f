"""Runs a command while holding the lock dl-refactor takes on a project root
(an exclusive flock of the directory) for SECONDS, then releases it and
waits for the command; its output and exit status are passed through.

usage: hold-lock.py DIR SECONDS COMMAND...
"""
import fcntl
import os
import subprocess
import sys
import time

root, seconds, command = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
fcntl.flock(fd, fcntl.LOCK_EX)
proc = subprocess.Popen(command, stdout=sys.stdout, stderr=sys.stderr)
time.sleep(seconds)
if proc.poll() is not None:
    sys.exit("the command ended while the lock was held")
fcntl.flock(fd, fcntl.LOCK_UN)
sys.exit(proc.wait())
