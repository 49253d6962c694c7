/*
 * test_pmu_users.c - other users of the PMU, on fake files: the NMI
 * watchdog, the kernel's uncore perf PMUs and a driver bound to an uncore
 * PCI function are named in the machine's warnings (pmon info), and a
 * counter another agent enabled is refused with them named too.
 */
#define _GNU_SOURCE
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "fake_hw.h"
#include "pmon/pmon.h"

int main(void)
{
	char base[128], path[512], err[512];
	struct fake_world w;
	pmon_machine_t *m;
	if (fake_tmpdir(base, sizeof(base)) || fake_snbep_world(base, 1, &w)) {
		CHECK(0, "fake device files");
		return check_done("test_pmu_users");
	}
	CHECK_EQ_INT(pmon_machine_open(&m, "msr", err, sizeof(err)), PMON_OK, err);
	CHECK(m && !pmon_machine_warnings(m)[0], "nothing else here: '%s'", m ? pmon_machine_warnings(m) : "");
	pmon_machine_close(m);

	snprintf(path, sizeof(path), "%s/nmi_watchdog", base);
	fake_write_file(path, "1\n", 2);
	setenv("PMON_NMI_WATCHDOG", path, 1);
	snprintf(path, sizeof(path), "%s/event_source/uncore_imc_0", base);
	fake_mkdir_p(path);
	snprintf(path, sizeof(path), "%s/event_source/uncore_cbox_0", base);
	fake_mkdir_p(path);
	snprintf(path, sizeof(path), "%s/event_source", base);
	setenv("PMON_EVENT_SOURCE", path, 1);
	fake_pci_dir(path, sizeof(path), w.sysfs, 0, 0x7f, 16, 1);
	strcat(path, "/driver");
	CHECK(symlink("../../bus/pci/drivers/snbep_uncore", path) == 0, "driver link");

	CHECK_EQ_INT(pmon_machine_open(&m, "msr", err, sizeof(err)), PMON_OK, err);
	const char *wtxt = pmon_machine_warnings(m);
	CHECK(strstr(wtxt, "NMI watchdog"), "watchdog named: %s", wtxt);
	CHECK(strstr(wtxt, "uncore_imc_0") && strstr(wtxt, "uncore_cbox_0") && strstr(wtxt, "2 PMUs"),
	      "uncore PMUs named: %s", wtxt);
	CHECK(strstr(wtxt, "snbep_uncore on socket 1 (7f:10.1)"), "bound driver named: %s", wtxt);
	static char info[65536];
	pmon_machine_describe(m, info, sizeof(info));
	CHECK(strstr(info, "NMI watchdog") && strstr(info, "snbep_uncore"), "pmon info shows them");

	/* another agent's enabled counter 0..3 of iMC1 on socket 1: refused, naming them */
	for (int c = 0; c < 4; c++)
		fake_pci_put(w.sysfs, 0, 0x7f, 16, 1, 0xd8 + 4 * c, 0x400001);
	pmon_session_t *s;
	pmon_encoding_t e;
	pmon_session_create(m, &s);
	pmon_machine_encode(m, "snbep_unc_imc1::UNC_M_CAS_COUNT:RD:socket=1", &e, err, sizeof(err));
	pmon_session_add(s, &e);
	CHECK_EQ_INT(pmon_session_start(s), PMON_EBUSY, "no free counter");
	CHECK(strstr(pmon_session_errmsg(s), "Seen on this machine") &&
	      strstr(pmon_session_errmsg(s), "snbep_uncore"), "refusal names them: %s",
	      pmon_session_errmsg(s));
	pmon_session_destroy(s);
	pmon_machine_close(m);
	fake_rmtree(base);
	return check_done("test_pmu_users");
}
