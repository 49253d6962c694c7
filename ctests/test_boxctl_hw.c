/*
 * test_boxctl_hw.c - the uncore box controls on fake device files (the
 * hardware backend, whose files read back what was written, as the freeze
 * bits of a box control do where they read at all): a freeze written from
 * outside while pmon counts is reported as PMON_EBUSY naming the box control
 * (an iMC's at the next read: it comes with the counters' block; a CBo's at
 * the full check of a reset and at stop), never a count, and the stop
 * leaves that freeze as the other agent wrote it (naming the box control and
 * the value found) while it puts the rest back; and a box control's freeze
 * bits found before the count are there again after stop.
 * (The journal and `pmon reset` of a box control: test_reset_hw.)
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fake_hw.h"
#include "pmon/pmon.h"

static char base[128];
static struct fake_world w;

#define BUS1 0x7f
#define IMC1 1               /* iMC channel 1: device 16, function 1 */
#define IMC_BOX_CTL 0xf4
#define CBO0_BOX_CTL 0xd04
#define FRZ_EN 0x10000u      /* box control bit 16 */
#define FRZ 0x100u           /* box control bit 8 */

static pmon_session_t *session_of(pmon_machine_t *m, const char *ev)
{
	pmon_session_t *s;
	pmon_encoding_t e;
	char err[512];
	pmon_session_create(m, &s);
	CHECK_EQ_INT(pmon_machine_encode(m, ev, &e, err, sizeof(err)), PMON_OK, err);
	CHECK_EQ_INT(pmon_session_add(s, &e), PMON_OK, pmon_session_errmsg(s));
	return s;
}

static int names(const pmon_session_t *s, const char *box, const char *reg)
{
	const char *msg = pmon_session_errmsg(s);
	return strstr(msg, box) && strstr(msg, reg) && strstr(msg, "no longer holds what pmon wrote");
}

/* The stop's error says it left reg as the other agent set it, = found. */
static int left_theirs(const pmon_session_t *s, const char *reg, const char *found)
{
	const char *msg = pmon_session_errmsg(s), *k = strstr(msg, "left as another agent set them");
	return k && strstr(k, reg) && strstr(k, found) &&
	       strstr(k, "every other register pmon changed was put back");
}

/* The CPU whose MSR file holds socket 0's uncore MSRs: the one pmon wrote
 * CBo 0's box control in (FRZ_EN while counting). */
static int cbo_cpu(void)
{
	for (int c = 0; c < 4; c++)
		if (fake_msr_get(w.msr, c, CBO0_BOX_CTL) == FRZ_EN)
			return c;
	return -1;
}

static void imc_frozen_from_outside(pmon_machine_t *m)
{
	pmon_session_t *s = session_of(m, "snbep_unc_imc1::UNC_M_CAS_COUNT:RD:socket=1");
	uint64_t v[1];
	CHECK_EQ_INT(pmon_session_start(s), PMON_OK, pmon_session_errmsg(s));
	CHECK_EQ_U64(fake_pci_get(w.sysfs, 0, BUS1, 16, IMC1, IMC_BOX_CTL), FRZ_EN, "iMC1 counting: frz_en");
	CHECK_EQ_INT(pmon_session_read(s, v), PMON_OK, pmon_session_errmsg(s));
	fake_pci_put(w.sysfs, 0, BUS1, 16, IMC1, IMC_BOX_CTL, FRZ_EN | FRZ);
	v[0] = 0xdeadbeef;
	CHECK_EQ_INT(pmon_session_read(s, v), PMON_EBUSY, "an outside freeze of the iMC fails the read");
	CHECK(names(s, "snbep_unc_imc1", "BOX_CTL"), "names the box control: %s", pmon_session_errmsg(s));
	CHECK_EQ_U64(v[0], 0xdeadbeef, "no count returned");
	CHECK_EQ_INT(pmon_session_read(s, v), PMON_EBUSY, "and every read after it");
	CHECK_EQ_INT(pmon_session_stop(s, NULL), PMON_EBUSY, "stop reports it too");
	CHECK_EQ_U64(fake_pci_get(w.sysfs, 0, BUS1, 16, IMC1, IMC_BOX_CTL), FRZ_EN | FRZ,
		     "the outside freeze left as found");
	CHECK(left_theirs(s, "snbep_unc_imc1 socket 1 BOX_CTL", "= 0x10100"), "stop says so: %s",
	      pmon_session_errmsg(s));
	CHECK_EQ_U64(fake_pci_get(w.sysfs, 0, BUS1, 16, IMC1, 0xd8), 0, "CTL0 restored to 0");
	pmon_session_destroy(s);
	fake_pci_put(w.sysfs, 0, BUS1, 16, IMC1, IMC_BOX_CTL, 0);      /* the other agent is done */
}

static void cbo_frozen_from_outside(pmon_machine_t *m)
{
	pmon_session_t *s = session_of(m, "snbep_unc_cbo0::UNC_C_CLOCKTICKS:socket=0");
	uint64_t v[1];
	CHECK_EQ_INT(pmon_session_start(s), PMON_OK, pmon_session_errmsg(s));
	int cpu = cbo_cpu();
	CHECK(cpu >= 0, "CBo 0 counting: frz_en in its box control");
	if (cpu < 0) {
		pmon_session_destroy(s);
		return;
	}
	CHECK_EQ_INT(pmon_session_read(s, v), PMON_OK, pmon_session_errmsg(s));
	CHECK_EQ_INT(pmon_session_reset(s), PMON_OK, pmon_session_errmsg(s));
	fake_msr_put(w.msr, cpu, CBO0_BOX_CTL, FRZ_EN | FRZ);
	/* the full check (a reset runs one, as a fold does) finds it */
	CHECK_EQ_INT(pmon_session_reset(s), PMON_EBUSY, "an outside freeze of the CBo fails the full check");
	CHECK(names(s, "snbep_unc_cbo0", "BOX_CTL") && strstr(pmon_session_errmsg(s), "0xd04"),
	      "names the box control: %s", pmon_session_errmsg(s));
	CHECK_EQ_INT(pmon_session_stop(s, NULL), PMON_EBUSY, "stop finds it before it freezes the box");
	CHECK(names(s, "snbep_unc_cbo0", "BOX_CTL"), "stop names it: %s", pmon_session_errmsg(s));
	CHECK_EQ_U64(fake_msr_get(w.msr, cpu, CBO0_BOX_CTL), FRZ_EN | FRZ, "the outside freeze left as found");
	CHECK(left_theirs(s, "snbep_unc_cbo0 socket 0 BOX_CTL (MSR 0xd04)", "= 0x10100"),
	      "stop says so: %s", pmon_session_errmsg(s));
	pmon_session_destroy(s);
	fake_msr_put(w.msr, cpu, CBO0_BOX_CTL, 0);

	/* the same freeze found by stop alone */
	s = session_of(m, "snbep_unc_cbo0::UNC_C_CLOCKTICKS:socket=0");
	CHECK_EQ_INT(pmon_session_start(s), PMON_OK, pmon_session_errmsg(s));
	fake_msr_put(w.msr, cpu, CBO0_BOX_CTL, FRZ_EN | FRZ);
	CHECK_EQ_INT(pmon_session_stop(s, v), PMON_EBUSY, "an outside freeze fails the stop");
	CHECK(names(s, "snbep_unc_cbo0", "BOX_CTL"), "stop names it: %s", pmon_session_errmsg(s));
	CHECK_EQ_U64(fake_msr_get(w.msr, cpu, CBO0_BOX_CTL), FRZ_EN | FRZ, "the outside freeze left as found");
	CHECK(left_theirs(s, "snbep_unc_cbo0 socket 0 BOX_CTL (MSR 0xd04)", "= 0x10100"),
	      "stop says so: %s", pmon_session_errmsg(s));
	pmon_session_destroy(s);
	fake_msr_put(w.msr, cpu, CBO0_BOX_CTL, 0);
}

/* Freeze bits found in a box control are there after a clean count; its
 * reset bits (write-only) are never written back. */
static void preset_kept(pmon_machine_t *m)
{
	fake_pci_put(w.sysfs, 0, BUS1, 16, IMC1, IMC_BOX_CTL, FRZ_EN);
	pmon_session_t *s = session_of(m, "snbep_unc_imc1::UNC_M_CAS_COUNT:RD:socket=1");
	uint64_t v[1];
	CHECK_EQ_INT(pmon_session_start(s), PMON_OK, pmon_session_errmsg(s));
	CHECK_EQ_INT(pmon_session_read(s, v), PMON_OK, pmon_session_errmsg(s));
	CHECK_EQ_INT(pmon_session_stop(s, v), PMON_OK, pmon_session_errmsg(s));
	CHECK_EQ_U64(fake_pci_get(w.sysfs, 0, BUS1, 16, IMC1, IMC_BOX_CTL), FRZ_EN, "iMC1 frz_en kept");
	fake_pci_put(w.sysfs, 0, BUS1, 16, IMC1, IMC_BOX_CTL, FRZ_EN | FRZ | 0x3);
	CHECK_EQ_INT(pmon_session_start(s), PMON_OK, pmon_session_errmsg(s));
	CHECK_EQ_U64(fake_pci_get(w.sysfs, 0, BUS1, 16, IMC1, IMC_BOX_CTL), FRZ_EN, "counting: frz_en");
	CHECK_EQ_INT(pmon_session_stop(s, v), PMON_OK, pmon_session_errmsg(s));
	CHECK_EQ_U64(fake_pci_get(w.sysfs, 0, BUS1, 16, IMC1, IMC_BOX_CTL), FRZ_EN | FRZ,
		     "iMC1 frozen as found, without the reset bits");
	pmon_session_destroy(s);
	fake_pci_put(w.sysfs, 0, BUS1, 16, IMC1, IMC_BOX_CTL, 0);

	/* two sessions of one process on one box: the box counts on for the
	 * second after the first stops; the last puts the value found back */
	fake_pci_put(w.sysfs, 0, BUS1, 16, IMC1, IMC_BOX_CTL, FRZ_EN | FRZ);
	pmon_session_t *a = session_of(m, "snbep_unc_imc1::UNC_M_CAS_COUNT:RD:socket=1");
	pmon_session_t *b = session_of(m, "snbep_unc_imc1::UNC_M_CAS_COUNT:WR:socket=1");
	CHECK_EQ_INT(pmon_session_start(a), PMON_OK, pmon_session_errmsg(a));
	CHECK_EQ_INT(pmon_session_start(b), PMON_OK, pmon_session_errmsg(b));
	CHECK_EQ_INT(pmon_session_read(a, v), PMON_OK, pmon_session_errmsg(a));
	CHECK_EQ_INT(pmon_session_stop(a, v), PMON_OK, pmon_session_errmsg(a));
	CHECK_EQ_U64(fake_pci_get(w.sysfs, 0, BUS1, 16, IMC1, IMC_BOX_CTL), FRZ_EN, "b still counts");
	CHECK_EQ_INT(pmon_session_read(b, v), PMON_OK, pmon_session_errmsg(b));
	CHECK_EQ_INT(pmon_session_stop(b, v), PMON_OK, pmon_session_errmsg(b));
	CHECK_EQ_U64(fake_pci_get(w.sysfs, 0, BUS1, 16, IMC1, IMC_BOX_CTL), FRZ_EN | FRZ, "as found");
	pmon_session_destroy(a);
	pmon_session_destroy(b);
	fake_pci_put(w.sysfs, 0, BUS1, 16, IMC1, IMC_BOX_CTL, 0);

	/* CBo 0: frz_en found, frz_en after */
	pmon_session_t *c = session_of(m, "snbep_unc_cbo0::UNC_C_CLOCKTICKS:socket=0");
	CHECK_EQ_INT(pmon_session_start(c), PMON_OK, pmon_session_errmsg(c));
	int cpu = cbo_cpu();
	CHECK_EQ_INT(pmon_session_stop(c, v), PMON_OK, pmon_session_errmsg(c));
	if (cpu >= 0) {
		fake_msr_put(w.msr, cpu, CBO0_BOX_CTL, FRZ_EN);
		CHECK_EQ_INT(pmon_session_start(c), PMON_OK, pmon_session_errmsg(c));
		CHECK_EQ_INT(pmon_session_stop(c, v), PMON_OK, pmon_session_errmsg(c));
		CHECK_EQ_U64(fake_msr_get(w.msr, cpu, CBO0_BOX_CTL), FRZ_EN, "CBo 0 frz_en kept");
		fake_msr_put(w.msr, cpu, CBO0_BOX_CTL, 0);
	}
	pmon_session_destroy(c);
}

int main(void)
{
	if (fake_tmpdir(base, sizeof(base)) || fake_snbep_world(base, 1, &w)) {
		CHECK(0, "fake device files");
		return check_done("test_boxctl_hw");
	}
	pmon_machine_t *m;
	char why[512];
	CHECK_EQ_INT(pmon_machine_open(&m, "msr", why, sizeof(why)), PMON_OK, why);
	imc_frozen_from_outside(m);
	cbo_frozen_from_outside(m);
	preset_kept(m);
	pmon_machine_close(m);
	fake_rmtree(base);
	return check_done("test_boxctl_hw");
}
