/*
 * test_boxlock.c - per-box locks between processes and the per-socket
 * journal, on a temporary run directory: a second owner is refused with the
 * holder's pid, a lock dies with its holder (kill -9), references count
 * within one set, a clean release removes the file; the journal keeps the
 * first value of a register, drops a box's lines, and disappears when empty.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "fake_hw.h"
#include "pmon/pmon.h"
#include "boxlock.h"
#include "journal.h"

static char dir[128];

static int exists(const char *name)
{
	char path[300];
	struct stat st;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return stat(path, &st) == 0;
}

static void locks_in_process(void)
{
	struct pmon_boxlocks a, b;
	char why[512];
	long holder = -1;

	pmon_boxlocks_init(&a, dir);
	pmon_boxlocks_init(&b, dir);
	CHECK_EQ_INT(pmon_boxlock_take(&a, "socket0.snbep_unc_pcu", &holder, why, sizeof(why)), PMON_OK, why);
	CHECK(exists("socket0.snbep_unc_pcu.lock"), "lock file made");
	CHECK_EQ_INT(pmon_boxlock_take(&a, "socket0.snbep_unc_pcu", &holder, why, sizeof(why)), PMON_OK, why);
	CHECK_EQ_INT(pmon_boxlock_refs(&a, "socket0.snbep_unc_pcu"), 2, "two references");
	/* a second set (another machine handle) is another owner */
	CHECK_EQ_INT(pmon_boxlock_take(&b, "socket0.snbep_unc_pcu", &holder, why, sizeof(why)),
		     PMON_EBUSY, "second owner refused");
	CHECK_EQ_INT(holder, getpid(), "holder is this process");
	/* the holder is this very process: said so, not as if it were another */
	char pid[48];
	snprintf(pid, sizeof(pid), "already held by this process (pid %ld)", (long)getpid());
	CHECK(strstr(why, pid) && strstr(why, "socket0.snbep_unc_pcu") &&
	      strstr(why, "another pmon machine handle") && !strstr(why, "in use by process"),
	      "names box, this process and its other handle: %s", why);
	/* another box is free */
	CHECK_EQ_INT(pmon_boxlock_take(&b, "socket1.snbep_unc_pcu", &holder, why, sizeof(why)), PMON_OK, why);
	CHECK_EQ_INT(pmon_boxlock_drop(&a, "socket0.snbep_unc_pcu"), 1, "one reference left");
	CHECK_EQ_INT(pmon_boxlock_take(&b, "socket0.snbep_unc_pcu", &holder, why, sizeof(why)),
		     PMON_EBUSY, "still held");
	CHECK_EQ_INT(pmon_boxlock_drop(&a, "socket0.snbep_unc_pcu"), 0, "released");
	CHECK(exists("socket0.snbep_unc_pcu.lock"), "a release keeps the file, unlocked, for the "
	      "set's next take");
	CHECK_EQ_INT(pmon_boxlock_refs(&a, "socket0.snbep_unc_pcu"), 0, "no reference left");
	CHECK_EQ_INT(pmon_boxlock_take(&b, "socket0.snbep_unc_pcu", &holder, why, sizeof(why)), PMON_OK, why);
	pmon_boxlocks_fini(&b);
	pmon_boxlocks_fini(&a);
	CHECK(!exists("socket1.snbep_unc_pcu.lock") && !exists("socket0.snbep_unc_pcu.lock"),
	      "fini releases everything");
}

/* A file a set keeps between its takes is not reused by a fork's child:
 * the child's copy of the set shares the parent's open file description,
 * through which a lock would not exclude the parent, and an unlock would
 * release the parent's.  The parent takes the box again after the fork;
 * the child is refused, and the parent still holds it. */
static void kept_file_after_fork(void)
{
	struct pmon_boxlocks a;
	char why[512];
	long holder = 0;
	int go[2], done[2];
	pmon_boxlocks_init(&a, dir);
	CHECK_EQ_INT(pmon_boxlock_take(&a, "socket0.snbep_unc_cbo0", &holder, why, sizeof(why)), PMON_OK, why);
	CHECK_EQ_INT(pmon_boxlock_drop(&a, "socket0.snbep_unc_cbo0"), 0, "kept");
	CHECK(pipe(go) == 0 && pipe(done) == 0, "pipes");
	pid_t c = fork();
	if (c == 0) {
		char x = 0;
		if (read(go[0], &x, 1) != 1)
			_exit(1);
		x = pmon_boxlock_take(&a, "socket0.snbep_unc_cbo0", &holder, why, sizeof(why)) == PMON_EBUSY &&
		    holder == (long)getppid() ? 'y' : 'n';
		_exit(write(done[1], &x, 1) == 1 ? 0 : 1);
	}
	CHECK_EQ_INT(pmon_boxlock_take(&a, "socket0.snbep_unc_cbo0", &holder, why, sizeof(why)), PMON_OK, why);
	char x = 0;
	CHECK(write(go[1], "x", 1) == 1 && read(done[0], &x, 1) == 1 && x == 'y',
	      "the child is refused, naming the parent");
	CHECK(waitpid(c, NULL, 0) == c, "the child ends");
	struct pmon_boxlocks b;
	pmon_boxlocks_init(&b, dir);
	CHECK_EQ_INT(pmon_boxlock_take(&b, "socket0.snbep_unc_cbo0", &holder, why, sizeof(why)),
		     PMON_EBUSY, "the parent still holds it");
	pmon_boxlocks_fini(&b);
	pmon_boxlocks_fini(&a);
	CHECK(!exists("socket0.snbep_unc_cbo0.lock"), "fini removes the file");
}

static void lock_dies_with_holder(void)
{
	int go[2], ready[2];
	char why[512];
	long holder = 0;
	if (pipe(go) || pipe(ready)) {
		CHECK(0, "pipe");
		return;
	}
	pid_t pid = fork();
	if (pid == 0) {
		struct pmon_boxlocks c;
		char w[256], x;
		long h;
		pmon_boxlocks_init(&c, dir);
		int rc = pmon_boxlock_take(&c, "cpu3.snb_ep", &h, w, sizeof(w));
		x = rc == PMON_OK ? 'y' : 'n';
		if (write(ready[1], &x, 1) != 1 || read(go[0], &x, 1) < 0)
			_exit(1);
		_exit(0);
	}
	char x = 0;
	CHECK(read(ready[0], &x, 1) == 1 && x == 'y', "child took the lock");
	struct pmon_boxlocks p;
	pmon_boxlocks_init(&p, dir);
	CHECK_EQ_INT(pmon_boxlock_take(&p, "cpu3.snb_ep", &holder, why, sizeof(why)), PMON_EBUSY,
		     "held by the child");
	CHECK_EQ_INT(holder, pid, "holder pid is the child's");
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	CHECK(exists("cpu3.snb_ep.lock"), "the killed child left its file");
	CHECK_EQ_INT(pmon_boxlock_take(&p, "cpu3.snb_ep", &holder, why, sizeof(why)), PMON_OK,
		     "the lock died with its holder");
	pmon_boxlocks_fini(&p);
	close(go[0]);
	close(go[1]);
	close(ready[0]);
	close(ready[1]);
}

static void journal(void)
{
	struct pmon_journal_entry e[3] = {
		{ .box = "snbep_unc_pcu", .cpu = -1, .kind = REG_FILTER, .idx = 0, .value = 0x1234,
		  .mask = ~0ull },
		{ .box = "snbep_unc_pcu", .cpu = -1, .kind = REG_CTL, .idx = 1, .mask = ~0ull },
		{ .box = "snb_ep", .cpu = 2, .kind = REG_GLOBAL_CTL, .value = 0x1, .mask = 0x3 },
	};
	struct pmon_journal_entry *got;
	char why[1024], bad[512];
	int n;

	CHECK_EQ_INT(pmon_journal_load(dir, 0, &got, &n, bad, sizeof(bad), why, sizeof(why)), PMON_OK, why);
	CHECK_EQ_INT(n, 0, "no journal yet");
	free(got);
	CHECK_EQ_INT(pmon_journal_add(dir, 0, e, 3, why, sizeof(why)), PMON_OK, why);
	CHECK(exists("socket0.journal") && !exists("socket1.journal"), "socket 0's file");
	/* the first value of a register stays */
	struct pmon_journal_entry later = e[0];
	later.value = 0x9999;
	CHECK_EQ_INT(pmon_journal_add(dir, 0, &later, 1, why, sizeof(why)), PMON_OK, why);
	CHECK_EQ_INT(pmon_journal_load(dir, 0, &got, &n, bad, sizeof(bad), why, sizeof(why)), PMON_OK, why);
	CHECK_EQ_INT(n, 3, "three entries");
	if (n == 3) {
		CHECK(!strcmp(got[0].box, "snbep_unc_pcu") && got[0].kind == REG_FILTER &&
		      got[0].value == 0x1234 && got[0].mask == ~0ull, "filter entry kept its first value");
		CHECK(got[2].cpu == 2 && got[2].kind == REG_GLOBAL_CTL && got[2].value == 1 &&
		      got[2].mask == 3, "global entry with its mask");
	}
	free(got);
	CHECK_EQ_INT(pmon_journal_drop(dir, 0, "snbep_unc_pcu", -1, why, sizeof(why)), PMON_OK, why);
	CHECK_EQ_INT(pmon_journal_load(dir, 0, &got, &n, bad, sizeof(bad), why, sizeof(why)), PMON_OK, why);
	CHECK(n == 1 && !strcmp(got[0].box, "snb_ep"), "only the core entry left");
	free(got);
	CHECK_EQ_INT(pmon_journal_drop(dir, 0, "snb_ep", 2, why, sizeof(why)), PMON_OK, why);
	CHECK(!exists("socket0.journal"), "an empty journal is removed");
	/* a damaged journal: its line is named, and a start on its socket is
	 * refused naming the file and `pmon reset` */
	char path[300];
	snprintf(path, sizeof(path), "%s/socket1.journal", dir);
	fake_write_journal(path, "box=x cpu=0 reg=nonsense\n", 25);
	CHECK_EQ_INT(pmon_journal_load(dir, 1, &got, &n, bad, sizeof(bad), why, sizeof(why)), PMON_OK,
		     why);
	CHECK(n == 0 && strstr(bad, "socket1.journal line 1"), "names file and line: %s", bad);
	free(got);
	CHECK_EQ_INT(pmon_journal_add(dir, 1, e, 1, why, sizeof(why)), PMON_EIO, "damaged");
	CHECK(strstr(why, "socket1.journal line 1") && strstr(why, "`pmon reset --socket 1`"),
	      "names the file, the line and pmon reset: %s", why);
	unlink(path);
}

int main(void)
{
	if (fake_tmpdir(dir, sizeof(dir))) {
		CHECK(0, "temp dir");
		return check_done("test_boxlock");
	}
	strcat(dir, "/run/pmon");        /* made on demand */
	locks_in_process();
	kept_file_after_fork();
	lock_dies_with_holder();
	journal();
	char top[128];
	snprintf(top, sizeof(top), "%.*s", (int)(strlen(dir) - strlen("/run/pmon")), dir);
	fake_rmtree(top);
	return check_done("test_boxlock");
}
