/*
 * test_taken_hw.c - a control another agent rewrites while pmon counts, on
 * fake device files (the hardware backend): CTL0 of a CBo (an MSR) and CTL0
 * of an iMC channel (PCI config space).  The read fails with PMON_EBUSY; the
 * stop fails with PMON_EBUSY too, leaves the other agent's value in place
 * byte for byte, puts every other register it changed back, and names the
 * register with the value found; its journal keeps a line of mask 0 for it
 * (another agent's), so `pmon reset` (the tool, as in test_reset_hw) leaves
 * it too, every time, and says so.  A stop that finds the change itself (no
 * read before it) does the same.  Once the other agent is done with it and
 * a session counts there again, the line goes with that session's clean stop.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "fake_hw.h"
#include "pmon/pmon.h"
#include "fold.h"

static char base[128];
static struct fake_world w;
static pmon_machine_t *m;

#define CBO0_BOX_CTL 0xd04u
#define CBO0_CTL0 0xd10u
#define CBO1_BOX_CTL 0xd24u
#define CBO1_CTL0 0xd30u
#define BUS1 0x7f
#define IMC1 1                       /* iMC channel 1: device 16, function 1 */
#define IMC_CTL0 0xd8u
#define IMC_BOX_CTL 0xf4u
#define THEIRS_MSR 0x0000000000441234ull   /* another agent's event in CBo 0 CTL0 */
#define THEIRS_PCI 0x00430f01u             /* another agent's event in iMC 1 CTL0 */

static pmon_session_t *session_of(const char *ev1, const char *ev2)
{
	pmon_session_t *s;
	pmon_encoding_t e;
	char err[512];
	pmon_session_create(m, &s);
	for (int i = 0; i < 2; i++) {
		const char *ev = i ? ev2 : ev1;
		if (!ev)
			continue;
		CHECK_EQ_INT(pmon_machine_encode(m, ev, &e, err, sizeof(err)), PMON_OK, err);
		CHECK_EQ_INT(pmon_session_add(s, &e), PMON_OK, pmon_session_errmsg(s));
	}
	return s;
}

/* The socket's journal, whole ("" when there is none). */
static void journal(int socket, char *buf, size_t len)
{
	char path[400];
	snprintf(path, sizeof(path), "%s/socket%d.journal", w.run, socket);
	buf[0] = 0;
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	size_t n = fread(buf, 1, len - 1, f);
	buf[n] = 0;
	fclose(f);
}

/* The lines of a journal that name box. */
static int lines_of(const char *j, const char *box)
{
	char key[64];
	int n = 0;
	snprintf(key, sizeof(key), "box=%s ", box);
	for (const char *p = j; (p = strstr(p, key)); p++)
		n++;
	return n;
}

/* The stop's error: the change it found, and the register it left. */
static int says_left(const pmon_session_t *s, const char *reg_and_value)
{
	const char *msg = pmon_session_errmsg(s), *k = strstr(msg, "left as another agent set them");
	return strstr(msg, "no longer holds what pmon wrote") && k && strstr(k, reg_and_value) &&
	       strstr(k, "every other register pmon changed was put back");
}

static void sleep_past_check(void)
{
	/* an MSR control is checked by a read once PMON_VERIFY_NS (wall time
	 * on the hardware backend) has passed since the last full check */
	struct timespec t = { 0, (long)(PMON_VERIFY_NS + 20000000ull) };
	nanosleep(&t, NULL);
}

/* CBo 0 CTL0 (MSR 0xd10), read first; CBo 1 in the same session counts
 * undisturbed and is put back. */
static void cbo_ctl0(void)
{
	int cpu = pmon_machine_socket_cpu(m, 0);
	char j[4096], out[8192];
	uint64_t v[2] = { 0, 0 };
	pmon_session_t *s = session_of("snbep_unc_cbo0::UNC_C_CLOCKTICKS:socket=0",
				       "snbep_unc_cbo1::UNC_C_CLOCKTICKS:socket=0");
	CHECK_EQ_INT(pmon_session_start(s), PMON_OK, pmon_session_errmsg(s));
	CHECK(pmon_session_counter(s, 0) == 0 && pmon_session_counter(s, 1) == 0, "both on counter 0");
	CHECK_EQ_U64(fake_msr_get(w.msr, cpu, CBO0_BOX_CTL), 0x10000, "CBo 0 counting: frz_en");
	CHECK(fake_msr_get(w.msr, cpu, CBO0_CTL0) & 0x400000, "CBo 0 CTL0 enabled by pmon");
	fake_msr_put(w.msr, cpu, CBO0_CTL0, THEIRS_MSR);
	sleep_past_check();
	v[0] = v[1] = 0xdeadbeef;
	CHECK_EQ_INT(pmon_session_read(s, v), PMON_EBUSY, "the read after the change");
	CHECK(strstr(pmon_session_errmsg(s), "snbep_unc_cbo0 socket 0 CTL0 (MSR 0xd10) no longer holds"),
	      "names it: %s", pmon_session_errmsg(s));
	CHECK_EQ_U64(v[0], 0xdeadbeef, "no count");

	CHECK_EQ_INT(pmon_session_stop(s, v), PMON_EBUSY, "the stop reports it");
	CHECK(says_left(s, "snbep_unc_cbo0 socket 0 CTL0 (MSR 0xd10) = 0x441234"), "stop says so: %s",
	      pmon_session_errmsg(s));
	CHECK_EQ_U64(fake_msr_get(w.msr, cpu, CBO0_CTL0), THEIRS_MSR, "their CTL0, all 8 bytes");
	CHECK_EQ_U64(fake_msr_get(w.msr, cpu, CBO0_BOX_CTL), 0, "CBo 0 box control put back");
	CHECK_EQ_U64(fake_msr_get(w.msr, cpu, CBO1_CTL0), 0, "CBo 1 CTL0 put back");
	CHECK_EQ_U64(fake_msr_get(w.msr, cpu, CBO1_BOX_CTL), 0, "CBo 1 box control put back");
	journal(0, j, sizeof(j));
	CHECK(strstr(j, "box=snbep_unc_cbo0 cpu=-1 reg=ctl idx=0 value=0x441234 wrote=- mask=0x0 sum=") &&
	      lines_of(j, "snbep_unc_cbo0") == 1 && lines_of(j, "snbep_unc_cbo1") == 0,
	      "the journal keeps CTL0 as theirs, nothing else: %s", j);
	pmon_session_destroy(s);

	/* `pmon reset`, twice: their CTL0 stays */
	for (int i = 0; i < 2; i++) {
		int rc = fake_run_tool("reset --socket 0", out, sizeof(out));
		CHECK(rc == 0 && strstr(out, "left alone") &&
		      strstr(out, "snbep_unc_cbo0 socket 0 CTL0 (MSR 0xd10) (0x441234 when pmon stopped)"),
		      "reset %d says it leaves CTL0: %s", i + 1, out);
		CHECK_EQ_U64(fake_msr_get(w.msr, cpu, CBO0_CTL0), THEIRS_MSR, "their CTL0 after the reset");
		CHECK_EQ_U64(fake_msr_get(w.msr, cpu, CBO1_CTL0), 0, "CBo 1 untouched");
		journal(0, j, sizeof(j));
		CHECK(lines_of(j, "snbep_unc_cbo0") == 1, "the line stays: %s", j);
	}

	/* the stop alone finds it */
	fake_msr_put(w.msr, cpu, CBO0_CTL0, 0);          /* the other agent is done */
	s = session_of("snbep_unc_cbo0::UNC_C_CLOCKTICKS:socket=0", NULL);
	CHECK_EQ_INT(pmon_session_start(s), PMON_OK, pmon_session_errmsg(s));
	journal(0, j, sizeof(j));
	CHECK(strstr(j, "box=snbep_unc_cbo0 cpu=-1 reg=ctl idx=0 value=0x0 wrote=0x400000 mask=0xffffffffffffffff sum="),
	      "pmon's again: the line has the original 0: %s", j);
	fake_msr_put(w.msr, cpu, CBO0_CTL0, THEIRS_MSR);
	CHECK_EQ_INT(pmon_session_stop(s, v), PMON_EBUSY, "a stop with no read before it");
	CHECK(says_left(s, "snbep_unc_cbo0 socket 0 CTL0 (MSR 0xd10) = 0x441234"), "stop says so: %s",
	      pmon_session_errmsg(s));
	CHECK_EQ_U64(fake_msr_get(w.msr, cpu, CBO0_CTL0), THEIRS_MSR, "their CTL0");
	CHECK_EQ_U64(fake_msr_get(w.msr, cpu, CBO0_BOX_CTL), 0, "box control put back");

	/* once it is free and pmon counts there again, a clean stop removes the line */
	fake_msr_put(w.msr, cpu, CBO0_CTL0, 0);
	CHECK_EQ_INT(pmon_session_start(s), PMON_OK, pmon_session_errmsg(s));
	CHECK_EQ_INT(pmon_session_stop(s, v), PMON_OK, pmon_session_errmsg(s));
	journal(0, j, sizeof(j));
	CHECK_EQ_INT(lines_of(j, "snbep_unc_cbo0"), 0, "no line of CBo 0 left");
	CHECK_EQ_U64(fake_msr_get(w.msr, cpu, CBO0_CTL0), 0, "CTL0 put back");
	pmon_session_destroy(s);
}

struct cfg { unsigned char b[4096]; };

static void cfg_read(struct cfg *c)
{
	char path[512];
	fake_pci_dir(path, sizeof(path), w.sysfs, 0, BUS1, 16, IMC1);
	strcat(path, "/config");
	memset(c, 0xee, sizeof(*c));
	FILE *f = fopen(path, "rb");
	if (f) {
		if (fread(c->b, 1, sizeof(c->b), f) != sizeof(c->b))
			c->b[0] ^= 0xff;
		fclose(f);
	}
}

/* iMC 1 CTL0 (PCI), CTL1 of the same session put back. */
static void imc_ctl0(void)
{
	struct cfg before, expect, after;
	char j[4096], out[8192];
	uint64_t v[2];
	fake_pci_put(w.sysfs, 0, BUS1, 16, IMC1, 0xa0, 0x12345678);   /* a counter's bytes */
	cfg_read(&before);
	pmon_session_t *s = session_of("snbep_unc_imc1::UNC_M_CAS_COUNT:WR:socket=1",
				       "snbep_unc_imc1::UNC_M_CAS_COUNT:RD:socket=1");
	CHECK_EQ_INT(pmon_session_start(s), PMON_OK, pmon_session_errmsg(s));
	CHECK(pmon_session_counter(s, 0) == 1 && pmon_session_counter(s, 1) == 0, "WR on 1, RD on 0");
	CHECK_EQ_U64(fake_pci_get(w.sysfs, 0, BUS1, 16, IMC1, IMC_CTL0), 0x400304, "CTL0 = CAS RD | en");
	CHECK_EQ_U64(fake_pci_get(w.sysfs, 0, BUS1, 16, IMC1, IMC_CTL0 + 4), 0x400c04, "CTL1 = CAS WR | en");
	CHECK_EQ_INT(pmon_session_read(s, v), PMON_OK, pmon_session_errmsg(s));
	fake_pci_put(w.sysfs, 0, BUS1, 16, IMC1, IMC_CTL0, THEIRS_PCI);
	v[0] = 0xdeadbeef;
	CHECK_EQ_INT(pmon_session_read(s, v), PMON_EBUSY, "the very next read");
	CHECK_EQ_U64(v[0], 0xdeadbeef, "no count");
	CHECK_EQ_INT(pmon_session_stop(s, v), PMON_EBUSY, "the stop reports it");
	CHECK(says_left(s, "snbep_unc_imc1 socket 1 CTL0 (PCI 0000:7f:10.1 offset 0xd8) = 0x430f01"),
	      "stop says so: %s", pmon_session_errmsg(s));
	/* byte for byte: as before the count, but for their CTL0 */
	expect = before;
	for (int i = 0; i < 4; i++)
		expect.b[IMC_CTL0 + i] = (unsigned char)(THEIRS_PCI >> (8 * i));
	cfg_read(&after);
	CHECK(!memcmp(&after, &expect, sizeof(after)), "iMC 1 config space: their CTL0, the rest as before");
	CHECK_EQ_U64(fake_pci_get(w.sysfs, 0, BUS1, 16, IMC1, IMC_CTL0), THEIRS_PCI, "their CTL0");
	CHECK_EQ_U64(fake_pci_get(w.sysfs, 0, BUS1, 16, IMC1, IMC_CTL0 + 4), 0, "CTL1 put back");
	CHECK_EQ_U64(fake_pci_get(w.sysfs, 0, BUS1, 16, IMC1, IMC_BOX_CTL), 0, "box control put back");
	journal(1, j, sizeof(j));
	CHECK(strstr(j, "box=snbep_unc_imc1 cpu=-1 reg=ctl idx=0 value=0x430f01 wrote=- mask=0x0 sum=") &&
	      lines_of(j, "snbep_unc_imc1") == 1, "the journal keeps CTL0 as theirs, nothing else: %s", j);
	pmon_session_destroy(s);

	int rc = fake_run_tool("reset --socket 1", out, sizeof(out));
	CHECK(rc == 0 && strstr(out, "0 register(s) put back") && strstr(out, "left alone") &&
	      strstr(out, "snbep_unc_imc1 socket 1 CTL0 (PCI 0000:7f:10.1 offset 0xd8) (0x430f01 when pmon stopped)"),
	      "reset says it leaves CTL0: %s", out);
	cfg_read(&after);
	CHECK(!memcmp(&after, &expect, sizeof(after)), "reset: their CTL0 and the rest as they were");
	fake_pci_put(w.sysfs, 0, BUS1, 16, IMC1, IMC_CTL0, 0);
}

int main(void)
{
	if (fake_tmpdir(base, sizeof(base)) || fake_snbep_world(base, 1, &w)) {
		CHECK(0, "fake device files");
		return check_done("test_taken_hw");
	}
	char why[512];
	CHECK_EQ_INT(pmon_machine_open(&m, "msr", why, sizeof(why)), PMON_OK, why);
	if (m) {
		cbo_ctl0();
		imc_ctl0();
		pmon_machine_close(m);
	}
	fake_rmtree(base);
	return check_done("test_taken_hw");
}
