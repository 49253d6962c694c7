/*
 * test_reset_hw.c - two processes on fake device files (the hardware
 * backend): a box one process counts with is refused to another, naming the
 * holder's pid, with nothing written; racing starts of two processes over
 * hundreds of rounds never both win and never leave a register changed; a
 * process killed with SIGKILL mid-count leaves its journal, `pmon reset`
 * (the tool, as a user runs it: build/bin/pmon or $PMON_BIN) refuses while a
 * live process holds the box and afterwards puts every register back exactly
 * as it was before the count (a box control's freeze bits included);
 * without a journal it writes nothing; --all returns the PMON registers of
 * the boxes without an enabled control to their power-on value 0, and
 * --force those with one too.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "fake_hw.h"
#include "pmon/pmon.h"

static char base[128];
static struct fake_world w;

/* socket 1's four iMC functions (bus 0x7f, device 16, functions 0 1 4 5) */
static const unsigned imc_func[4] = { 0, 1, 4, 5 };

struct snap { unsigned char cfg[4][4096]; };

static void snapshot(struct snap *s)
{
	for (int f = 0; f < 4; f++) {
		char path[512];
		fake_pci_dir(path, sizeof(path), w.sysfs, 0, 0x7f, 16, imc_func[f]);
		strcat(path, "/config");
		FILE *fp = fopen(path, "rb");
		memset(s->cfg[f], 0xee, sizeof(s->cfg[f]));
		if (fp) {
			if (fread(s->cfg[f], 1, sizeof(s->cfg[f]), fp) != sizeof(s->cfg[f]))
				s->cfg[f][0] ^= 0xff;
			fclose(fp);
		}
	}
}

static int same_snap(const struct snap *a, const struct snap *b)
{
	return memcmp(a, b, sizeof(*a)) == 0;
}

static pmon_session_t *imc_session(pmon_machine_t *m, const char *ev)
{
	pmon_session_t *s;
	pmon_encoding_t e;
	char err[512];
	pmon_session_create(m, &s);
	if (pmon_machine_encode(m, ev, &e, err, sizeof(err)) || pmon_session_add(s, &e)) {
		pmon_session_destroy(s);
		return NULL;
	}
	return s;
}

/* A child that starts counting on socket 1's iMC channel 1 and waits. */
static pid_t counting_child(int *ready_fd)
{
	int p[2];
	if (pipe(p))
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		pmon_machine_t *m;
		char why[512], x = 'n';
		close(p[0]);
		if (pmon_machine_open(&m, "msr", why, sizeof(why)) == 0) {
			pmon_session_t *s = imc_session(m, "snbep_unc_imc1::UNC_M_CAS_COUNT:RD:socket=1");
			pmon_session_t *f = imc_session(m, "snbep_unc_imc1::UNC_M_CLOCKTICKS:socket=1");
			if (s && f && pmon_session_start(s) == 0 && pmon_session_start(f) == 0)
				x = 'y';
		}
		if (write(p[1], &x, 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(p[1]);
	*ready_fd = p[0];
	return pid;
}

static void killed_then_reset(void)
{
	struct snap before, during, after;
	char out[4096], pidtxt[64];
	int fd = -1;
	/* another agent's leftovers that are not PMON state pmon may change */
	fake_pci_put(w.sysfs, 0, 0x7f, 16, 1, 0xe4, 0x00000101);
	fake_pci_put(w.sysfs, 0, 0x7f, 16, 1, 0xa0, 0x12345678);
	/* a box control found with frz_en set: its freeze bits are journaled
	 * and put back, by `pmon reset` as by a clean stop */
	fake_pci_put(w.sysfs, 0, 0x7f, 16, 1, 0xf4, 0x10000);
	snapshot(&before);
	pid_t pid = counting_child(&fd);
	char x = 0;
	CHECK(read(fd, &x, 1) == 1 && x == 'y', "the child counts");
	close(fd);
	snapshot(&during);
	CHECK(!same_snap(&before, &during), "the child programmed the iMC");
	CHECK_EQ_U64(fake_pci_get(w.sysfs, 0, 0x7f, 16, 1, 0xd8), 0x400304, "CTL0 = CAS RD | en");
	char jpath[400];
	snprintf(jpath, sizeof(jpath), "%s/socket1.journal", w.run);
	struct stat st;
	CHECK(stat(jpath, &st) == 0, "the child's journal exists");

	/* a second process: refused, naming the child, nothing written */
	pmon_machine_t *m;
	char why[512];
	CHECK_EQ_INT(pmon_machine_open(&m, "msr", why, sizeof(why)), PMON_OK, why);
	pmon_session_t *s = imc_session(m, "snbep_unc_imc1::UNC_M_CAS_COUNT:WR:socket=1");
	snprintf(pidtxt, sizeof(pidtxt), "process %ld", (long)pid);
	CHECK_EQ_INT(pmon_session_start(s), PMON_EBUSY, "box held by the child");
	CHECK(strstr(pmon_session_errmsg(s), pidtxt) && strstr(pmon_session_errmsg(s), "snbep_unc_imc1") &&
	      strstr(pmon_session_errmsg(s), "CTL"), "names box, register, pid: %s",
	      pmon_session_errmsg(s));
	snapshot(&after);
	CHECK(same_snap(&during, &after), "the refused start wrote nothing");

	/* reset while the child lives: refused, nothing written */
	int rc = fake_run_tool("reset --socket 1", out, sizeof(out));
	CHECK(rc == 1 && strstr(out, pidtxt), "reset refused while the child counts: %s", out);
	snapshot(&after);
	CHECK(same_snap(&during, &after), "the refused reset wrote nothing");

	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	snapshot(&after);
	CHECK(same_snap(&during, &after), "the killed child restored nothing");

	rc = fake_run_tool("reset --socket 1", out, sizeof(out));
	CHECK(rc == 0 && strstr(out, "put back from the journal"), "reset: %s", out);
	snapshot(&after);
	CHECK(same_snap(&before, &after), "every register as before the count");
	CHECK_EQ_U64(fake_pci_get(w.sysfs, 0, 0x7f, 16, 1, 0xf4), 0x10000, "iMC1 BOX_CTL as found");
	CHECK(stat(jpath, &st) != 0, "the journal is gone");
	CHECK_EQ_INT(pmon_session_start(s), PMON_OK, pmon_session_errmsg(s));
	CHECK_EQ_INT(pmon_session_stop(s, NULL), PMON_OK, pmon_session_errmsg(s));
	snapshot(&after);
	CHECK(same_snap(&before, &after), "a clean count leaves nothing changed");
	CHECK_EQ_U64(fake_pci_get(w.sysfs, 0, 0x7f, 16, 1, 0xf4), 0x10000, "iMC1 BOX_CTL as found");
	CHECK(stat(jpath, &st) != 0, "a clean stop removes its journal");
	pmon_session_destroy(s);
	pmon_machine_close(m);

	/* no journal: nothing is written, beside another agent's enabled
	 * control; --all clears what pmon has no record of but leaves a box
	 * with an enabled control; --force clears that too */
	fake_pci_put(w.sysfs, 0, 0x7f, 16, 4, 0xdc, 0x400104);
	rc = fake_run_tool("reset --socket 1", out, sizeof(out));
	CHECK(rc == 0 && strstr(out, "no journal") && strstr(out, "nothing written") &&
	      strstr(out, "--all"), "reset without journal: %s", out);
	CHECK_EQ_U64(fake_pci_get(w.sysfs, 0, 0x7f, 16, 4, 0xdc), 0x400104, "their enabled iMC2 CTL1");
	CHECK_EQ_U64(fake_pci_get(w.sysfs, 0, 0x7f, 16, 1, 0xe4), 0x101, "iMC1 CTL3 as found");
	for (int i = 0; i < 2; i++) {   /* the second: as harmless as the first */
		rc = fake_run_tool("reset --socket 1 --all", out, sizeof(out));
		CHECK(rc == 0 && strstr(out, "--all: ") && strstr(out, "snbep_unc_imc1") &&
		      strstr(out, "left alone the boxes where a control is enabled") &&
		      strstr(out, "snbep_unc_imc2 (snbep_unc_imc2 socket 1 CTL1 (PCI 0000:7f:10.4 offset "
			     "0xdc) = 0x400104)"), "reset --all %d: %s", i + 1, out);
		CHECK_EQ_U64(fake_pci_get(w.sysfs, 0, 0x7f, 16, 4, 0xdc), 0x400104,
			     "their enabled iMC2 CTL1 stays");
		CHECK_EQ_U64(fake_pci_get(w.sysfs, 0, 0x7f, 16, 1, 0xe4), 0, "iMC1 CTL3 at power-on 0");
		CHECK_EQ_U64(fake_pci_get(w.sysfs, 0, 0x7f, 16, 1, 0xf4), 0, "iMC1 BOX_CTL at power-on 0");
	}
	rc = fake_run_tool("reset --socket 1 --all --force", out, sizeof(out));
	CHECK(rc == 0 && strstr(out, "snbep_unc_imc2 (enabled, cleared by --force)"), "--force: %s", out);
	CHECK_EQ_U64(fake_pci_get(w.sysfs, 0, 0x7f, 16, 4, 0xdc), 0, "--force: iMC2 CTL1 at 0");
	CHECK_EQ_U64(fake_pci_get(w.sysfs, 0, 0x7f, 16, 1, 0xa0), 0x12345678, "counters untouched");
}

/* Two processes, each looping: wait for the parent's go, try to start,
 * report, wait, stop.  Racing: both get "go" at once. */
static void two_processes(int rounds, int racing, int *both, int *none, int *changed, int *bad_msg)
{
	int go[2][2], rep[2][2];
	pid_t pid[2];
	static const char *ev[2] = { "snbep_unc_imc2::UNC_M_CAS_COUNT:RD:socket=0",
				     "snbep_unc_imc2::UNC_M_CAS_COUNT:WR:socket=0" };
	struct snap before, after;
	for (int c = 0; c < 2; c++)
		if (pipe(go[c]) || pipe(rep[c]))
			return;
	for (int c = 0; c < 2; c++) {
		pid[c] = fork();
		if (pid[c] == 0) {
			pmon_machine_t *m;
			char why[512], x;
			if (pmon_machine_open(&m, "msr", why, sizeof(why)))
				_exit(3);
			pmon_session_t *s = imc_session(m, ev[c]);
			while (read(go[c][0], &x, 1) == 1 && x == 'g') {
				int rc = pmon_session_start(s);
				char r = rc == 0 ? 'w' : rc == PMON_EBUSY ? 'b' : 'e';
				/* a refusal must name the other process */
				if (r == 'b' && (!strstr(pmon_session_errmsg(s), "process ") ||
						 !strstr(pmon_session_errmsg(s), "socket0.snbep_unc_imc2")))
					r = 'm';
				if (r == 'w' && fake_pci_get(w.sysfs, 0, 0x3f, 16, 4, 0xd8) !=
				    (c ? 0x400c04u : 0x400304u))
					r = 'c';            /* someone else's value in our control */
				if (write(rep[c][1], &r, 1) != 1 || read(go[c][0], &x, 1) != 1)
					_exit(4);
				if (rc == 0)
					pmon_session_stop(s, NULL);
				if (write(rep[c][1], "s", 1) != 1)
					_exit(4);
			}
			pmon_session_destroy(s);
			pmon_machine_close(m);
			_exit(0);
		}
	}
	snapshot(&before);
	for (int i = 0; i < rounds; i++) {
		char r[2], x;
		if (racing) {
			for (int c = 0; c < 2; c++)
				if (write(go[c][1], "g", 1) != 1)
					return;
			for (int c = 0; c < 2; c++)
				if (read(rep[c][0], &r[c], 1) != 1)
					r[c] = '?';
		} else {
			/* one starts first, then the other tries while it counts */
			int f = i & 1;
			if (write(go[f][1], "g", 1) != 1 || read(rep[f][0], &r[f], 1) != 1)
				return;
			if (write(go[!f][1], "g", 1) != 1 || read(rep[!f][0], &r[!f], 1) != 1)
				return;
			if (r[f] != 'w' || r[!f] != 'b')
				(*bad_msg)++;
		}
		*both += r[0] == 'w' && r[1] == 'w';
		*none += r[0] != 'w' && r[1] != 'w';
		*bad_msg += r[0] == 'm' || r[1] == 'm' || r[0] == 'c' || r[1] == 'c' || r[0] == 'e' ||
			    r[1] == 'e';
		for (int c = 0; c < 2; c++)
			if (write(go[c][1], "t", 1) != 1 || read(rep[c][0], &x, 1) != 1)
				return;
		snapshot(&after);
		*changed += !same_snap(&before, &after);
	}
	for (int c = 0; c < 2; c++)
		if (write(go[c][1], "q", 1) != 1)
			kill(pid[c], SIGKILL);
	for (int c = 0; c < 2; c++) {
		waitpid(pid[c], NULL, 0);
		close(go[c][1]);
		close(go[c][0]);
		close(rep[c][0]);
		close(rep[c][1]);
	}
}

int main(void)
{
	if (fake_tmpdir(base, sizeof(base)) || fake_snbep_world(base, 1, &w)) {
		CHECK(0, "fake device files");
		return check_done("test_reset_hw");
	}
	killed_then_reset();
	int both = 0, none = 0, changed = 0, bad = 0;
	const int seq = 200, race = 300;
	two_processes(seq, 0, &both, &none, &changed, &bad);
	CHECK_EQ_INT(both + none + changed + bad, 0, "sequential rounds: both/none/changed/bad");
	printf("sequential: %d rounds, %d both won, %d none, %d left changed, %d bad\n", seq, both,
	       none, changed, bad);
	both = none = changed = bad = 0;
	two_processes(race, 1, &both, &none, &changed, &bad);
	CHECK_EQ_INT(both, 0, "racing: never both");
	CHECK_EQ_INT(none, 0, "racing: always one");
	CHECK_EQ_INT(changed, 0, "racing: no register left changed");
	CHECK_EQ_INT(bad, 0, "racing: every refusal names a process, no foreign value");
	printf("racing: %d rounds, %d both won, %d none, %d left changed, %d bad\n", race, both,
	       none, changed, bad);
	fake_rmtree(base);
	return check_done("test_reset_hw");
}
