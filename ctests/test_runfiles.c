/*
 * test_runfiles.c - the run directory against a hostile user (issue 18,
 * defects 5 and 6), on fake device files (the hardware backend), as root:
 *  - planted links: a lock file that is a symbolic link to a root-only
 *    file, one that is a hard link to it, a dangling symbolic link where the
 *    journal lock goes: a start refuses each, naming it, and the file the
 *    link points to keeps its bytes (no file is made where a dangling link
 *    points);
 *  - a run directory owned by another user, or writable by its group or by
 *    others, or a symbolic link: refused, named, nothing written;
 *  - lock files are 0600;
 *  - another user (uid 65534, through setpriv) holding a read lock: it
 *    cannot open the lock files at all; given an open file description of
 *    the journal lock, its read lock makes a start and `pmon reset` fail
 *    within the bound naming the file and the holder, instead of hanging;
 *    its read lock on a stale box lock (left by a killed owner) is told
 *    apart from a live owner;
 *  - with elevated privileges (effective uid 0, real uid not), PMON_RUN_DIR
 *    and the other redirecting variables are ignored, and a machine does
 *    not open while an HWLOC_* variable is set (hwloc reads them itself:
 *    HWLOC_PLUGINS_PATH loads code);
 *  - the emulated machine's locks make no file, and empty pmon-sim-PID-*
 *    directories of dead processes are removed at the next open.
 * The parts that need another user are skipped (counted as a skipped
 * program) when the test is not root or setpriv cannot run it.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "fake_hw.h"
#include "pmon/pmon.h"
#include "boxlock.h"
#include "safefile.h"

static char base[128], self[4096];
static struct fake_world w;

#define PCU "snbep_unc_pcu::UNC_P_CLOCKTICKS:socket=0"
#define VICTIM_TEXT "root-only bytes\n"

/* ------------------------------------------------------- a read-lock holder */

/* The holder, run as `test_runfiles --hold FD|PATH` by setpriv as uid
 * 65534: a read lock on the whole file, "locked" or "cannot ..." on
 * stdout, held until stdin closes. */
static int hold(const char *what)
{
	int fd = what[0] == '/' ? open(what, O_RDONLY) : atoi(what);
	struct flock fl = { .l_type = F_RDLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0 };
	if (fd < 0)
		printf("cannot open %s: %s\n", what, strerror(errno));
	else if (fcntl(fd, F_OFD_SETLK, &fl))
		printf("cannot lock %s: %s\n", what, strerror(errno));
	else
		printf("locked\n");
	fflush(stdout);
	char c;
	while (read(0, &c, 1) > 0)
		;
	return 0;
}

struct holder {
	pid_t pid;
	int in;                   /* its stdin: closing it ends the holder */
	char said[256];
};

/* Start a holder as uid 65534 (setpriv) on what (a path, or fd, given to
 * it when fd >= 0); 0 and what it said, or -1 when it could not run. */
static int holder_start(struct holder *h, const char *path, int fd)
{
	int in[2], out[2];
	char arg[32];
	if (pipe(in) || pipe(out))
		return -1;
	h->pid = fork();
	if (h->pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		close(in[1]);
		close(out[0]);
		if (fd >= 0) {
			fcntl(fd, F_SETFD, 0);
			snprintf(arg, sizeof(arg), "%d", fd);
		}
		execlp("setpriv", "setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", self,
		       "--hold", fd >= 0 ? arg : path, (char *)NULL);
		printf("cannot run setpriv: %s\n", strerror(errno));
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	h->in = in[1];
	ssize_t n = read(out[0], h->said, sizeof(h->said) - 1);
	h->said[n > 0 ? n : 0] = 0;
	close(out[0]);
	return h->pid > 0 && n > 0 ? 0 : -1;
}

static void holder_end(struct holder *h)
{
	close(h->in);
	waitpid(h->pid, NULL, 0);
}

/* ------------------------------------------------- counting in a child */

struct outcome {
	int rc;                   /* start's (or reset's) code; 1: no answer in time */
	double s;                 /* seconds it took */
	char msg[1536];
};

/* In a child: open the fake machine and start a PCU count (reset: `pmon
 * reset` of socket 0 instead), within 10 s or killed. */
static void timed(int reset, struct outcome *o)
{
	int p[2];
	struct timespec t0, t1;
	memset(o, 0, sizeof(*o));
	o->rc = 1;
	if (pipe(p))
		return;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid_t pid = fork();
	if (pid == 0) {
		pmon_machine_t *m;
		pmon_session_t *s = NULL;
		pmon_encoding_t e;
		char msg[sizeof(o->msg)] = "";
		int rc = pmon_machine_open(&m, "msr", msg, sizeof(msg));
		if (!rc && reset) {
			rc = pmon_machine_reset(m, 0, msg, sizeof(msg));
		} else if (!rc) {
			pmon_session_create(m, &s);
			pmon_machine_encode(m, PCU, &e, msg, sizeof(msg));
			pmon_session_add(s, &e);
			rc = pmon_session_start(s);
			snprintf(msg, sizeof(msg), "%s", pmon_session_errmsg(s));
		}
		if (write(p[1], &rc, sizeof(rc)) < 0 || write(p[1], msg, strlen(msg)) < 0)
			_exit(1);
		if (s && !rc)
			pmon_session_stop(s, NULL);
		_exit(0);
	}
	close(p[1]);
	struct pollfd pf = { .fd = p[0], .events = POLLIN };
	if (poll(&pf, 1, 10000) == 1 && read(p[0], &o->rc, sizeof(o->rc)) == sizeof(o->rc)) {
		ssize_t n = read(p[0], o->msg, sizeof(o->msg) - 1);
		o->msg[n > 0 ? n : 0] = 0;
	} else {
		o->rc = 1;
		snprintf(o->msg, sizeof(o->msg), "no answer within 10 s (hung)");
		kill(pid, SIGKILL);
	}
	waitpid(pid, NULL, 0);
	close(p[0]);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	o->s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
}

static void run_path(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", w.run, name);
}

static int file_has(const char *path, const char *text)
{
	char buf[256] = "";
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	return !strcmp(buf, text);
}

static unsigned mode_of(const char *path)
{
	struct stat st;
	return lstat(path, &st) ? 0 : (unsigned)(st.st_mode & 07777);
}

/* ------------------------------------------------------------ the tests */

static void planted_links(void)
{
	char victim[256], lock[400], jlock[400], made[256];
	struct outcome o;
	snprintf(victim, sizeof(victim), "%s/root-only", base);
	snprintf(made, sizeof(made), "%s/made-by-root", base);
	fake_write_file(victim, VICTIM_TEXT, strlen(VICTIM_TEXT));
	chmod(victim, 0600);
	run_path(lock, sizeof(lock), "socket0.snbep_unc_pcu.lock");
	run_path(jlock, sizeof(jlock), "socket0.journal.lock");

	/* a symbolic link where the box lock goes */
	CHECK(symlink(victim, lock) == 0, "plant %s", lock);
	timed(0, &o);
	CHECK_EQ_INT(o.rc, PMON_EPERM, "a start through a symlinked lock file is refused");
	CHECK(strstr(o.msg, lock) && strstr(o.msg, "symbolic link"), "names the link: %s", o.msg);
	CHECK(file_has(victim, VICTIM_TEXT), "the file it points to keeps its bytes");
	unlink(lock);

	/* a hard link to the root-only file */
	CHECK(link(victim, lock) == 0, "plant a hard link %s", lock);
	timed(0, &o);
	CHECK_EQ_INT(o.rc, PMON_EPERM, "a start through a hard-linked lock file is refused");
	CHECK(strstr(o.msg, lock) && strstr(o.msg, "links"), "names the link: %s", o.msg);
	CHECK(file_has(victim, VICTIM_TEXT), "the linked file keeps its bytes");
	unlink(lock);

	/* a dangling symbolic link where the journal lock goes */
	CHECK(symlink(made, jlock) == 0, "plant %s", jlock);
	timed(0, &o);
	CHECK_EQ_INT(o.rc, PMON_EPERM, "a start through a symlinked journal lock is refused");
	CHECK(strstr(o.msg, jlock) && strstr(o.msg, "symbolic link"), "names the link: %s", o.msg);
	CHECK(access(made, F_OK) != 0, "no file made where the link points");
	CHECK(!fake_msr_get(w.msr, 0, 0xc30), "nothing written: PCU CTL0 0");
	unlink(jlock);

	/* then a start goes through, and its files are 0600 */
	timed(0, &o);
	CHECK_EQ_INT(o.rc, PMON_OK, o.msg);
	CHECK_EQ_INT(mode_of(jlock), 0600, "the journal lock is 0600");
}

/* Lock files of a running owner, seen from here. */
static void lock_modes(void)
{
	pmon_machine_t *m;
	pmon_session_t *s;
	pmon_encoding_t e;
	char why[512], lock[400];
	CHECK_EQ_INT(pmon_machine_open(&m, "msr", why, sizeof(why)), PMON_OK, why);
	if (!m)
		return;
	pmon_session_create(m, &s);
	pmon_machine_encode(m, PCU, &e, why, sizeof(why));
	pmon_session_add(s, &e);
	CHECK_EQ_INT(pmon_session_start(s), PMON_OK, pmon_session_errmsg(s));
	run_path(lock, sizeof(lock), "socket0.snbep_unc_pcu.lock");
	CHECK_EQ_INT(mode_of(lock), 0600, "a box lock file is 0600");
	CHECK_EQ_INT(pmon_session_stop(s, NULL), PMON_OK, pmon_session_errmsg(s));
	pmon_session_destroy(s);
	pmon_machine_close(m);
}

static void foreign_run_dir(void)
{
	struct outcome o;
	char real[400];

	CHECK(chown(w.run, 65534, 65534) == 0, "give the run directory to uid 65534");
	timed(0, &o);
	CHECK_EQ_INT(o.rc, PMON_EPERM, "a run directory of another user is refused");
	CHECK(strstr(o.msg, w.run) && strstr(o.msg, "owned by uid 65534"), "names it: %s", o.msg);
	CHECK(!fake_msr_get(w.msr, 0, 0xc30), "nothing written: PCU CTL0 0");
	CHECK(chown(w.run, 0, 0) == 0, "back to root");

	static const struct { unsigned mode; const char *says; } bad[] = {
		{ 0777, "writable by others" }, { 0770, "writable by its group" },
		{ 0733, "writable by others" },
	};
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		chmod(w.run, bad[i].mode);
		timed(0, &o);
		CHECK_EQ_INT(o.rc, PMON_EPERM, "a run directory others can write is refused");
		CHECK(strstr(o.msg, w.run) && strstr(o.msg, bad[i].says), "mode %o: %s", bad[i].mode, o.msg);
	}
	chmod(w.run, 0755);
	timed(0, &o);
	CHECK_EQ_INT(o.rc, PMON_OK, o.msg);

	/* a symbolic link as the run directory */
	snprintf(real, sizeof(real), "%s.real", w.run);
	CHECK(rename(w.run, real) == 0 && symlink(real, w.run) == 0, "the run directory as a link");
	timed(0, &o);
	CHECK_EQ_INT(o.rc, PMON_EPERM, "a symlinked run directory is refused");
	CHECK(strstr(o.msg, w.run) && strstr(o.msg, "not a directory"), "names it: %s", o.msg);
	unlink(w.run);
	CHECK(rename(real, w.run) == 0, "the run directory back");
}

/* The run directory's parents: one others may write without the sticky
 * bit, or one of another user who is not root, could have the run
 * directory renamed away and another put in its place. */
static void unsafe_parents(void)
{
	struct outcome o;
	char link[400], via[400];

	chmod(base, 0777);
	timed(0, &o);
	CHECK_EQ_INT(o.rc, PMON_EPERM, "a parent others can write is refused");
	CHECK(strstr(o.msg, base) && strstr(o.msg, "a parent of the run directory") &&
	      strstr(o.msg, "writable by others without the sticky bit"), "names it: %s", o.msg);
	CHECK(!fake_msr_get(w.msr, 0, 0xc30), "nothing written: PCU CTL0 0");
	chmod(base, 0775);
	timed(0, &o);
	CHECK_EQ_INT(o.rc, PMON_EPERM, "a parent its group can write is refused");
	CHECK(strstr(o.msg, base) && strstr(o.msg, "writable by its group"), "names it: %s", o.msg);
	chmod(base, 01777);
	timed(0, &o);
	CHECK_EQ_INT(o.rc, PMON_OK, o.msg);  /* a sticky parent anyone can write, as /tmp */
	chmod(base, 0755);

	CHECK(chown(base, 65534, 65534) == 0, "give a parent to uid 65534");
	timed(0, &o);
	CHECK_EQ_INT(o.rc, PMON_EPERM, "a parent of another user is refused");
	CHECK(strstr(o.msg, base) && strstr(o.msg, "owned by uid 65534"), "names it: %s", o.msg);
	CHECK(chown(base, 0, 0) == 0, "back to root");

	/* reached through a symbolic link of another user */
	snprintf(link, sizeof(link), "%s/via", base);
	snprintf(via, sizeof(via), "%s/via/run", base);
	CHECK(symlink(base, link) == 0 && lchown(link, 65534, 65534) == 0, "a link of uid 65534");
	setenv("PMON_RUN_DIR", via, 1);
	timed(0, &o);
	CHECK_EQ_INT(o.rc, PMON_EPERM, "a path through another user's link is refused");
	CHECK(strstr(o.msg, link) && strstr(o.msg, "symbolic link owned by uid 65534"), "names it: %s",
	      o.msg);
	CHECK(lchown(link, 0, 0) == 0, "the link to root");
	timed(0, &o);
	CHECK_EQ_INT(o.rc, PMON_OK, o.msg);  /* through root's link */
	setenv("PMON_RUN_DIR", w.run, 1);
	unlink(link);
	timed(0, &o);
	CHECK_EQ_INT(o.rc, PMON_OK, o.msg);
}

/* Hostile files where the journal goes: a FIFO (opened for reading, it
 * would wait for a writer forever), a sparse file of 1 GiB, a megabyte of
 * 500000 one-character lines.  The start and `pmon reset` answer within
 * the bound, name the journal, and write nothing; reset removes the lines
 * that are not entries. */
static void hostile_journals(void)
{
	struct outcome o;
	char jpath[400];
	run_path(jpath, sizeof(jpath), "socket0.journal");
	CHECK(mkfifo(jpath, 0600) == 0, "a FIFO as the journal");
	for (int reset = 0; reset < 2; reset++) {
		timed(reset, &o);
		CHECK(o.rc != PMON_OK && o.rc != 1, "%s answers, refusing: %d %s",
		      reset ? "reset" : "start", o.rc, o.msg);
		CHECK(strstr(o.msg, jpath) && strstr(o.msg, "not a regular file"), "names it: %s", o.msg);
	}
	unlink(jpath);

	int fd = open(jpath, O_WRONLY | O_CREAT | O_EXCL, 0600);
	CHECK(fd >= 0 && ftruncate(fd, 1 << 30) == 0, "a sparse journal of 1 GiB");
	if (fd >= 0)
		close(fd);
	timed(0, &o);
	CHECK_EQ_INT(o.rc, PMON_EIO, "a start on a 1 GiB journal is refused");
	CHECK(strstr(o.msg, jpath) && strstr(o.msg, "1073741824 bytes"), "names it: %s", o.msg);
	unlink(jpath);

	static char lines[1000000];
	for (size_t i = 0; i < sizeof(lines); i += 2) {
		lines[i] = 'x';
		lines[i + 1] = '\n';
	}
	CHECK(fake_write_journal(jpath, lines, sizeof(lines)) == 0, "500000 lines");
	timed(0, &o);
	CHECK_EQ_INT(o.rc, PMON_EIO, "a start on it is refused");
	CHECK(strstr(o.msg, "500000 line(s) that are not entries") && strstr(o.msg, "499992 more") &&
	      strstr(o.msg, "pmon reset"), "counted, a few named, reset named: %.300s", o.msg);
	CHECK(o.s < 5, "answered in %.2f s", o.s);
	timed(1, &o);
	CHECK(o.rc == PMON_EINVAL && o.s < 5, "reset skips them (%d, %.2f s): %.300s", o.rc, o.s, o.msg);
	CHECK(access(jpath, F_OK) != 0, "and removes them");
	timed(0, &o);
	CHECK_EQ_INT(o.rc, PMON_OK, o.msg);
	CHECK(!fake_msr_get(w.msr, 0, 0xc30), "nothing left written: PCU CTL0 0");
}

/* A box lock left by an owner killed with SIGKILL: its file names a dead pid. */
static void stale_box_lock(const char *name)
{
	int ready[2];
	char c;
	if (pipe(ready))
		return;
	pid_t pid = fork();
	if (pid == 0) {
		struct pmon_boxlocks L;
		char why[512];
		long h;
		pmon_boxlocks_init(&L, w.run);
		c = pmon_boxlock_take(&L, name, &h, why, sizeof(why)) ? 'n' : 'y';
		if (write(ready[1], &c, 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	CHECK(read(ready[0], &c, 1) == 1 && c == 'y', "a child owns %s", name);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	close(ready[0]);
	close(ready[1]);
}

static void read_lock_by_other_user(void)
{
	struct holder h;
	struct outcome o;
	char jlock[400], lock[400];
	chmod(w.run, 0755);         /* reachable by uid 65534 (still refused for writing) */
	run_path(jlock, sizeof(jlock), "socket0.journal.lock");
	run_path(lock, sizeof(lock), "socket0.snbep_unc_pcu.lock");

	/* by its path: the lock file is not readable to another user */
	CHECK(holder_start(&h, jlock, -1) == 0, "the holder runs: %s", h.said);
	CHECK(strstr(h.said, "cannot open") && strstr(h.said, "Permission denied"),
	      "another user cannot open the journal lock: %s", h.said);
	if (strstr(h.said, "locked")) {
		timed(0, &o);    /* today: this start would hang */
		CHECK(o.rc != 1, "a start with the journal lock read-locked answers: %s", o.msg);
	}
	holder_end(&h);

	/* through a file description it got: the start and the reset answer
	 * within the bound, naming the file and the holder */
	int fd = open(jlock, O_RDONLY);
	CHECK(fd >= 0, "open %s", jlock);
	CHECK(holder_start(&h, NULL, fd) == 0 && strstr(h.said, "locked"), "the holder locks: %s",
	      h.said);
	close(fd);
	char who[64];
	snprintf(who, sizeof(who), "process %ld (uid 65534)", (long)h.pid);
	for (int reset = 0; reset < 2; reset++) {
		timed(reset, &o);
		CHECK_EQ_INT(o.rc, PMON_EBUSY, reset ? "reset refused, not hung" : "start refused, not hung");
		CHECK(o.s < PMON_LOCK_WAIT_MS / 1000.0 + 3, "answered in %.2f s", o.s);
		CHECK(strstr(o.msg, jlock) && strstr(o.msg, "uid 65534") && strstr(o.msg, "read lock"),
		      "names the file and the holder: %s", o.msg);
		CHECK(!fake_msr_get(w.msr, 0, 0xc30), "nothing written: PCU CTL0 0");
	}
	holder_end(&h);

	/* a stale box lock, read-locked by the other user: not a live owner */
	stale_box_lock("socket0.snbep_unc_pcu");
	fd = open(lock, O_RDONLY);
	CHECK(fd >= 0, "open %s", lock);
	CHECK(holder_start(&h, NULL, fd) == 0 && strstr(h.said, "locked"), "the holder locks: %s",
	      h.said);
	close(fd);
	timed(0, &o);
	CHECK_EQ_INT(o.rc, PMON_EBUSY, "start refused");
	CHECK(strstr(o.msg, lock) && strstr(o.msg, "read lock") && strstr(o.msg, "not a live owner") &&
	      strstr(o.msg, "not running") && strstr(o.msg, "uid 65534"),
	      "a stale lock told from a live owner: %s", o.msg);
	holder_end(&h);
	unlink(lock);
	timed(0, &o);
	CHECK_EQ_INT(o.rc, PMON_OK, o.msg);
	chmod(w.run, 0700);
}

/* Effective uid 0, real uid 65534: PMON_RUN_DIR is not trusted. */
static void elevated_env(void)
{
	pid_t pid = fork();
	if (pid == 0) {
		char dir[PATH_MAX];
		setenv("PMON_RUN_DIR", "/tmp/pmon-evil", 1);
		if (setresuid(65534, 0, 0))
			_exit(2);
		pmon_run_dir(dir, sizeof(dir));
		_exit(strcmp(dir, PMON_RUN_DIR_DEFAULT) ? 1 : 0);
	}
	int st = 0;
	waitpid(pid, &st, 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "with euid 0 and real uid 65534 the run "
	      "directory is the default, whatever PMON_RUN_DIR says (exit %d)", WEXITSTATUS(st));
	char dir[PATH_MAX];
	pmon_run_dir(dir, sizeof(dir));
	CHECK(!strcmp(dir, w.run), "not elevated: PMON_RUN_DIR (%s)", dir);
}

/* Variables the libraries pmon runs with read themselves to read or write
 * other files or load code (env.h pmon_env_hostile): hwloc's
 * (HWLOC_PLUGINS_PATH loads code, HWLOC_FSROOT, HWLOC_XMLFILE and
 * HWLOC_SYNTHETIC replace the machine), PAPI's (PAPI_CSV_EVENT_FILE and
 * PAPI_USER_EVENTS_FILE read event files, PAPI_OUTPUT_DIRECTORY receives
 * reports) and libpfm's: they cannot be made ignored, so elevated a
 * machine does not open while one is set, naming it; not elevated, it
 * opens as before.  Child: 0 as expected. */
static int env_child(int elevate, const char *var)
{
	char why[1024] = "";
	pmon_machine_t *m = NULL;
	setenv(var, base, 1);
	if (elevate && setresuid(65534, 0, 0))
		return 2;
	int rc = pmon_machine_open(&m, "sim", why, sizeof(why));
	if (m)
		pmon_machine_close(m);
	if (elevate)
		return rc == PMON_EPERM && strstr(why, var) ? 0 : 1;
	return rc == PMON_OK ? 0 : 1;
}

static void elevated_hwloc(void)
{
	static const char *const vars[] = {
		"HWLOC_PLUGINS_PATH", "PAPI_CSV_EVENT_FILE", "PAPI_USER_EVENTS_FILE",
		"PAPI_OUTPUT_DIRECTORY", "LIBPFM_FORCE_PMU",
	};
	for (size_t v = 0; v < sizeof(vars) / sizeof(vars[0]); v++)
		for (int elevate = 1; elevate >= 0; elevate--) {
			pid_t pid = fork();
			if (pid == 0)
				_exit(env_child(elevate, vars[v]));
			int st = 0;
			waitpid(pid, &st, 0);
			CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s and %s set: %s (exit %d)",
			      elevate ? "euid 0, real uid 65534" : "not elevated", vars[v],
			      elevate ? "refused with PMON_EPERM naming it" : "opens", WEXITSTATUS(st));
		}
}

static int entries(const char *dir, const char *but)
{
	int n = 0;
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d)))
		n += e->d_name[0] != '.' && strcmp(e->d_name, but);
	if (d)
		closedir(d);
	return n;
}

static void sim_locks(void)
{
	char dir[256], dead[400], live[400], why[512];
	snprintf(dir, sizeof(dir), "%s/simrun", base);
	mkdir(dir, 0700);
	pid_t pid = fork();
	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
	snprintf(dead, sizeof(dead), "%s/pmon-sim-%ld-55aa", dir, (long)pid);
	snprintf(live, sizeof(live), "%s/pmon-sim-1-55aa", dir);
	mkdir(dead, 0700);
	mkdir(live, 0700);
	setenv("PMON_RUN_DIR", dir, 1);
	pmon_machine_t *m;
	pmon_session_t *s;
	pmon_encoding_t e;
	CHECK_EQ_INT(pmon_machine_open(&m, "sim", why, sizeof(why)), PMON_OK, why);
	if (!m)
		return;
	CHECK(access(dead, F_OK) != 0, "the empty directory of a dead process is gone");
	CHECK(access(live, F_OK) == 0, "that of a live process stays");
	pmon_session_create(m, &s);
	pmon_machine_encode(m, PCU, &e, why, sizeof(why));
	pmon_session_add(s, &e);
	CHECK_EQ_INT(pmon_session_start(s), PMON_OK, pmon_session_errmsg(s));
	CHECK_EQ_INT(entries(dir, "pmon-sim-1-55aa"), 0, "the emulated machine's locks make no file");
	/* a second handle of the emulated machine is still another owner */
	pmon_machine_t *m2;
	pmon_session_t *s2;
	CHECK_EQ_INT(pmon_machine_open(&m2, "sim", why, sizeof(why)), PMON_OK, why);
	if (m2) {
		pmon_session_create(m2, &s2);
		pmon_session_add(s2, &e);
		CHECK_EQ_INT(pmon_session_start(s2), PMON_EBUSY, "a second handle is refused");
		CHECK(strstr(pmon_session_errmsg(s2), "another pmon machine handle"), "%s",
		      pmon_session_errmsg(s2));
		pmon_machine_close(m2);
	}
	CHECK_EQ_INT(pmon_session_stop(s, NULL), PMON_OK, pmon_session_errmsg(s));
	pmon_machine_close(m);
	rmdir(live);
	rmdir(dir);
	setenv("PMON_RUN_DIR", w.run, 1);
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--hold"))
		return hold(argv[2]);
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	self[n > 0 ? n : 0] = 0;
	setenv("PMON_QUIET", "1", 1);
	if (fake_tmpdir(base, sizeof(base)) || fake_snbep_world(base, 1, &w) || mkdir(w.run, 0700)) {
		CHECK(0, "fake device files");
		return check_done("test_runfiles");
	}
	sim_locks();
	planted_links();
	lock_modes();
	foreign_run_dir();
	unsafe_parents();
	hostile_journals();
	/* another user: root, and setpriv that runs this program as uid 65534 */
	const char *skip = NULL;
	if (geteuid() != 0)
		skip = "not root: no other user to hold a lock";
	else if (system("setpriv --reuid=65534 --regid=65534 --clear-groups true >/dev/null 2>&1"))
		skip = "setpriv cannot run a program as uid 65534 here";
	if (!skip) {
		read_lock_by_other_user();
		elevated_env();
		elevated_hwloc();
	}
	fake_rmtree(base);
	return skip ? check_skip("test_runfiles", skip) : check_done("test_runfiles");
}
