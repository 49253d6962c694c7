/* test_machine_hw.c - the hardware backend end to end, on fake device files:
 * sparse /dev/cpu/N/msr files, a fake sysfs PCI tree and cpuinfo, and an hwloc
 * XML topology.  pmon_machine_open("msr") finds the boxes; a session writes
 * its registers at the right MSRs and config offsets, reads counter values
 * poked into the files (across a wrap), and restores what it changed.  The
 * refusals name the problem: not an SNB-EP, msr module missing, uncore PCI
 * functions hidden, no permission.
 * MSR boxes are not programmed here: in a sparse file MSR m is the 8 bytes at
 * offset m, so neighbouring MSR numbers (a box's CTL0 0xC10 and CTR0 0xC16)
 * overlap, which the real device never does.  Their programming is checked on
 * the emulated machine (test_session_sim, test_session_boxes). */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "fake_hw.h"
#include "pmon/pmon.h"

static char base[256];
static struct fake_world w;
static char err[512];

#define BUS0 0x3f
#define BUS1 0x7f

static int build_world(int with_ubox)
{
	return fake_snbep_world(base, with_ubox, &w);
}

static void put_ctr(unsigned bus, unsigned func, unsigned off, uint64_t v)
{
	fake_pci_put(w.sysfs, 0, bus, 16, func, off, (uint32_t)v);
	fake_pci_put(w.sysfs, 0, bus, 16, func, off + 4, (uint32_t)(v >> 32));
}

static void session_on_files(pmon_machine_t *m)
{
	pmon_session_t *s;
	pmon_encoding_t e;
	uint64_t v[2];
	const unsigned ch1 = 1;   /* iMC channel 1 = function 1 */

	/* another agent's leftovers, to be restored */
	fake_pci_put(w.sysfs, 0, BUS1, 16, ch1, 0xe4, 0x00000101);
	/* counter values before the session: CTR0 of channel 1 near the 48-bit top */
	put_ctr(BUS1, ch1, 0xa0, 0xfffffffffff0ull);
	put_ctr(BUS1, ch1, 0xd0, 1000);                      /* DCLK fixed counter */

	pmon_session_create(m, &s);
	CHECK_EQ_INT(pmon_machine_encode(m, "snbep_unc_imc1::UNC_M_CAS_COUNT:RD:socket=1", &e, err,
					 sizeof(err)), PMON_OK, err);
	CHECK_EQ_INT(pmon_session_add(s, &e), PMON_OK, pmon_session_errmsg(s));
	CHECK_EQ_INT(pmon_machine_encode(m, "snbep_unc_imc1::UNC_M_CLOCKTICKS:cpu=3", &e, err,
					 sizeof(err)), PMON_OK, err);
	CHECK_EQ_INT(e.socket, 1, "cpu=3 is on socket 1");
	CHECK_EQ_INT(pmon_session_add(s, &e), PMON_OK, pmon_session_errmsg(s));
	CHECK_EQ_INT(pmon_session_counter(s, 0), 0, "CAS RD on counter 0");
	CHECK_EQ_INT(pmon_session_start(s), PMON_OK, pmon_session_errmsg(s));

	/* the registers in the files */
	CHECK_EQ_U64(fake_pci_get(w.sysfs, 0, BUS1, 16, ch1, 0xd8), 0x400304, "iMC CTL0 = CAS RD | en");
	CHECK_EQ_U64(fake_pci_get(w.sysfs, 0, BUS1, 16, ch1, 0xf0), 0x400000, "iMC fixed CTL = en");
	CHECK_EQ_U64(fake_pci_get(w.sysfs, 0, BUS1, 16, ch1, 0xf4), 0x10000, "iMC box released, frz_en kept");
	CHECK_EQ_U64(fake_pci_get(w.sysfs, 0, BUS0, 16, ch1, 0xd8), 0, "socket 0's channel untouched");

	/* the "hardware" counts: the counter wraps past 2^48 */
	put_ctr(BUS1, ch1, 0xa0, 0x20);
	put_ctr(BUS1, ch1, 0xd0, 1000 + 800000);
	CHECK_EQ_INT(pmon_session_read(s, v), PMON_OK, pmon_session_errmsg(s));
	CHECK_EQ_U64(v[0], 0x30, "CAS RD delta across the 48-bit wrap");
	CHECK_EQ_U64(v[1], 800000, "DCLK delta");
	CHECK_EQ_INT(pmon_session_stop(s, v), PMON_OK, pmon_session_errmsg(s));

	CHECK_EQ_U64(fake_pci_get(w.sysfs, 0, BUS1, 16, ch1, 0xd8), 0, "iMC CTL0 restored");
	CHECK_EQ_U64(fake_pci_get(w.sysfs, 0, BUS1, 16, ch1, 0xe4), 0x101, "unused CTL3 never touched");
	CHECK_EQ_U64(fake_pci_get(w.sysfs, 0, BUS1, 16, ch1, 0xf0), 0, "fixed CTL restored");
	CHECK_EQ_U64(fake_pci_get(w.sysfs, 0, BUS1, 16, ch1, 0xf4), 0, "box control released");
	CHECK_EQ_U64(fake_pci_get(w.sysfs, 0, BUS1, 11, 0, 0x40), 1, "UBox node ID intact");
	pmon_session_destroy(s);

	/* a box absent from this machine is refused before any access */
	CHECK_EQ_INT(pmon_machine_encode(m, "snbep_unc_ha::UNC_H_CLOCKTICKS", &e, err, sizeof(err)),
		     PMON_ENODEV, "no HA function in the tree");
	CHECK(strstr(err, "not present") != NULL, "message: %s", err);
}

static int open_msr_machine(void *arg, char *why, size_t len)
{
	pmon_machine_t *m;
	(void)arg;
	int rc = pmon_machine_open(&m, "msr", why, len);
	if (rc == 0)
		pmon_machine_close(m);
	return rc;
}

static void refusals(void)
{
	pmon_machine_t *m;
	char saved[300];

	/* msr module not loaded */
	snprintf(saved, sizeof(saved), "%s", w.msr);
	setenv("PMON_MSR_ROOT", "/nonexistent/cpu", 1);
	CHECK(pmon_machine_open(&m, "msr", err, sizeof(err)) != PMON_OK, "no msr files");
	CHECK(strstr(err, "modprobe msr") != NULL, "names the msr module: %s", err);
	CHECK(strstr(err, "PMON_BACKEND=sim") != NULL, "mentions the emulator: %s", err);
	setenv("PMON_MSR_ROOT", saved, 1);

	/* not an SNB-EP */
	char other[320];
	snprintf(other, sizeof(other), "%s/cpuinfo-skx", base);
	const char skx[] = "processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 85\n"
			   "model name\t: Intel(R) Xeon(R) Gold 6148 CPU @ 2.40GHz\nstepping\t: 4\n\n";
	fake_write_file(other, skx, sizeof(skx) - 1);
	setenv("PMON_CPUINFO", other, 1);
	CHECK_EQ_INT(pmon_machine_open(&m, "auto", err, sizeof(err)), PMON_ENOSUPP, "Skylake-SP refused");
	CHECK(strstr(err, "Gold 6148") && strstr(err, "model 85"), "names the CPU found: %s", err);
	setenv("PMON_CPUINFO", w.cpuinfo, 1);

	/* no permission: a child drops to nobody */
	char why[512];
	int rc = fake_as_nobody(open_msr_machine, NULL, why, sizeof(why));
	CHECK(rc == PMON_EPERM && strstr(why, "CAP_SYS_RAWIO"),
	      "as nobody: EPERM naming root/CAP_SYS_RAWIO (rc %d: %s)", rc, why);
}

static void hidden_uncore(void)
{
	pmon_machine_t *m;
	fake_rmtree(base);
	fake_tmpdir(base, sizeof(base));
	CHECK_EQ_INT(build_world(0), 0, "fake world without UBox");
	CHECK_EQ_INT(pmon_machine_open(&m, "msr", err, sizeof(err)), PMON_ENODEV, "no UBox function");
	CHECK(strstr(err, "hidden") != NULL, "says the functions may be hidden: %s", err);
}

int main(void)
{
	pmon_machine_t *m;
	if (fake_tmpdir(base, sizeof(base)) || build_world(1)) {
		CHECK(0, "could not build the fake device files");
		return check_done("test_machine_hw");
	}
	int rc = pmon_machine_open(&m, "msr", err, sizeof(err));
	CHECK_EQ_INT(rc, PMON_OK, err);
	if (rc == PMON_OK) {
		CHECK_EQ_INT(strcmp(pmon_machine_backend(m), "msr"), 0, "hardware backend");
		CHECK_EQ_INT(pmon_machine_nsockets(m), 2, "two sockets from hwloc");
		CHECK(pmon_machine_warnings(m)[0] == 0, "bus map agrees with hwloc: '%s'",
		      pmon_machine_warnings(m));
		CHECK_EQ_INT(pmon_machine_pmu_present(m, pmon_pmu_find("snbep_unc_imc3"), 1), 1, "imc3 on socket 1");
		session_on_files(m);
		pmon_machine_close(m);
	}
	refusals();
	hidden_uncore();
	fake_rmtree(base);
	return check_done("test_machine_hw");
}
