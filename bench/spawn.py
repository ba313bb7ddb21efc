"""The process that starts every measured command of bench/timing.py (a small spawn server).

Why: Linux counts in a child's peak RSS (`ru_maxrss`) the resident size of the process it was
forked from, because exec records the old address space's high-water mark. A child started by
the benchmark's own Python, which holds generated inputs, would report that Python's size (it
read 14 MiB for /bin/true, 600 MiB after generating the stress inputs). This server is a
Python with nothing imported but os, sys, time and signal (about 9 MiB, sent with every answer):
a peak at or below that figure means "at most this", and timing.py says so.

Protocol on stdin/stdout: a request is `LENGTH\\n` then LENGTH bytes, `TIMEOUT\\0ARG0\\0ARG1...`
(TIMEOUT in seconds, 0 for none); the answer is one line `WALL CPU MAXRSS_KIB STATUS HWM_KIB`
(STATUS the exit code, or minus the signal: a command over its timeout is killed with its
process group and answers -9; HWM_KIB this server's own peak, a child's peak at or below which
may be the server's) or `error MESSAGE`. The child's stdin and stdout/stderr are /dev/null.
"""
import os
import signal
import sys
import time


def hwm():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def main():
    requests, answers = sys.stdin.buffer, sys.stdout
    null = [(os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
            (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
            (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0)]
    child = [0]

    def expire(_signum, _frame):
        if child[0]:
            try:
                os.killpg(child[0], signal.SIGKILL)
            except OSError:
                pass

    signal.signal(signal.SIGALRM, expire)
    answers.write(f"ready {hwm()}\n")
    answers.flush()
    while True:
        header = requests.readline()
        if not header:
            return
        payload = requests.read(int(header)).decode("utf-8", "surrogateescape")
        timeout, *argv = payload.split("\0")
        start = time.perf_counter()
        try:
            pid = os.posix_spawnp(argv[0], argv, os.environ, file_actions=null, setsid=True)
        except OSError as error:
            answers.write(f"error {argv[0]}: {error.strerror}\n")
            answers.flush()
            continue
        child[0] = pid
        if float(timeout) > 0:
            signal.setitimer(signal.ITIMER_REAL, float(timeout))
        _, status, usage = os.wait4(pid, 0)
        wall = time.perf_counter() - start
        signal.setitimer(signal.ITIMER_REAL, 0)
        child[0] = 0
        code = os.waitstatus_to_exitcode(status)
        answers.write(f"{wall} {usage.ru_utime + usage.ru_stime} {usage.ru_maxrss} {code} "
                      f"{hwm()}\n")
        answers.flush()


main()
