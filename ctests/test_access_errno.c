/*
 * test_access_errno.c - the system's error reaches the caller of the MSR and
 * PCI backends as it is: a single EIO on a config or MSR access is
 * PMON_EIO naming EIO (never "need root", even when the next read would
 * succeed), ENXIO is PMON_ENODEV saying the device went away, and the access
 * after the fault works again.  Faults are injected with fault_syscalls.h
 * on fake device files.
 */
#include "fault_syscalls.h"

#include <fcntl.h>

#include "check.h"
#include "fake_hw.h"
#include "pmon/pmon.h"
#include "access.h"

/* The reason a register access gives when it fails. */
static char op_why[256];

static char tmp[64], msr_root[128], sysfs[128];

static const pmon_pci_addr_t UBOX = { 0, 0x3f, 11, 0 };
static const pmon_pci_addr_t IMC0 = { 0, 0x3f, 16, 0 };

static void pci_reads(struct pmon_pci_dev *p)
{
	uint32_t v = 0;
	const char *msg;

	/* one EIO on the iMC's CTL0; the config file itself is fine */
	fake_pci_put(sysfs, 0, 0x3f, 16, 0, 0xd8, 0x1234);
	fault_arm("/config", 0, 0, EIO);
	CHECK_EQ_INT(pmon_pci_read(p, IMC0, 0xd8, &v, op_why, sizeof op_why), PMON_EIO, "EIO read is PMON_EIO");
	msg = op_why;
	CHECK(strstr(msg, strerror(EIO)) && strstr(msg, "0xd8") && strstr(msg, "0000:3f:10.0") &&
	      !strstr(msg, "root"), "names EIO, the offset and the function: %s", msg);
	CHECK_EQ_INT(fault_state.fired, 1, "the fault was delivered");
	CHECK_EQ_INT(pmon_pci_read(p, IMC0, 0xd8, &v, op_why, sizeof op_why), PMON_OK, "next read works");
	CHECK_EQ_U64(v, 0x1234, "value after the fault");

	/* EIO on an extended-space register (the old diagnosis said root) */
	fault_arm("/config", 0, 0, EIO);
	CHECK_EQ_INT(pmon_pci_read(p, UBOX, 0x228, &v, op_why, sizeof op_why), PMON_EIO, "EIO at 0x228");
	CHECK(!strstr(op_why, "root"), "no permission guess: %s", op_why);

	/* the device went away */
	fault_arm("/config", 0, 0, ENXIO);
	CHECK_EQ_INT(pmon_pci_read(p, UBOX, 0x40, &v, op_why, sizeof op_why), PMON_ENODEV, "ENXIO read is PMON_ENODEV");
	msg = op_why;
	CHECK(strstr(msg, "went away") && strstr(msg, "0000:3f:0b.0"), "says it went away: %s", msg);

	/* a permission error is still one */
	fault_arm("/config", 0, 0, EACCES);
	CHECK_EQ_INT(pmon_pci_read(p, UBOX, 0x40, &v, op_why, sizeof op_why), PMON_EPERM, "EACCES read is PMON_EPERM");
	CHECK(strstr(op_why, "need root"), "needs root: %s", op_why);
}

static void pci_writes(struct pmon_pci_dev *p)
{
	fault_arm("/config", 1, 0, EIO);
	CHECK_EQ_INT(pmon_pci_write(p, IMC0, 0xd8, 0x400304, op_why, sizeof op_why), PMON_EIO, "EIO write is PMON_EIO");
	CHECK(strstr(op_why, strerror(EIO)) && strstr(op_why, "write"),
	      "names EIO: %s", op_why);
	CHECK_EQ_U64(fake_pci_get(sysfs, 0, 0x3f, 16, 0, 0xd8), 0x1234, "nothing written");
	fault_arm("/config", 1, 0, ENXIO);
	CHECK_EQ_INT(pmon_pci_write(p, IMC0, 0xd8, 0x400304, op_why, sizeof op_why), PMON_ENODEV, "ENXIO write");
	CHECK(strstr(op_why, "went away"), "went away: %s", op_why);
	CHECK_EQ_INT(pmon_pci_write(p, IMC0, 0xd8, 0x400304, op_why, sizeof op_why), PMON_OK, "next write works");
	CHECK_EQ_U64(fake_pci_get(sysfs, 0, 0x3f, 16, 0, 0xd8), 0x400304, "written after the fault");
}

static void msr_access(struct pmon_msr_dev *m)
{
	uint64_t v = 0;

	fake_msr_put(msr_root, 1, 0xc24, 0xabcd);
	fault_arm("/msr", 0, 0, EIO);
	CHECK_EQ_INT(pmon_msr_read(m, 1, 0xc24, &v, op_why, sizeof op_why), PMON_EIO, "EIO rdmsr");
	/* an EIO may be a #GP or a transient failure: no claim that the MSR is missing */
	CHECK(strstr(op_why, "rdmsr 0xc24 on CPU 1 failed (EIO, ") && strstr(op_why, strerror(EIO)) &&
	      strstr(op_why, "the access failed; the MSR may not exist on this CPU") &&
	      !strstr(op_why, "does not implement"), "names EIO, claims no more: %s", op_why);
	fault_arm("/msr", 0, 0, ENXIO);
	CHECK_EQ_INT(pmon_msr_read(m, 1, 0xc24, &v, op_why, sizeof op_why), PMON_ENODEV, "ENXIO rdmsr");
	CHECK(strstr(op_why, "went away") && strstr(op_why, "CPU 1"),
	      "went away: %s", op_why);
	CHECK_EQ_INT(pmon_msr_read(m, 1, 0xc24, &v, op_why, sizeof op_why), PMON_OK, "next rdmsr works");
	CHECK_EQ_U64(v, 0xabcd, "value after the faults");
	fault_arm("/msr", 1, 0, ENXIO);
	CHECK_EQ_INT(pmon_msr_write(m, 1, 0xc24, 5, op_why, sizeof op_why), PMON_ENODEV, "ENXIO wrmsr");
	fault_arm("/msr", 1, 0, EIO);
	CHECK_EQ_INT(pmon_msr_write(m, 1, 0xc24, 5, op_why, sizeof op_why), PMON_EIO, "EIO wrmsr");
	CHECK(strstr(op_why, "wrmsr 0xc24 = 0x5 on CPU 1 failed (EIO, ") && strstr(op_why, strerror(EIO)) &&
	      strstr(op_why, "the access failed; the MSR may not exist on this CPU or the value may set "
		     "reserved bits") && !strstr(op_why, "MSR missing"), "names EIO, claims no more: %s",
	      op_why);
	CHECK_EQ_U64(fake_msr_get(msr_root, 1, 0xc24), 0xabcd, "nothing written");
}

int main(void)
{
	struct pmon_pci_dev *p = NULL;
	struct pmon_msr_dev *m = NULL;
	char why[256];

	if (fake_tmpdir(tmp, sizeof(tmp))) {
		CHECK(0, "no temp dir");
		return check_done("test_access_errno");
	}
	snprintf(msr_root, sizeof(msr_root), "%s/cpu", tmp);
	snprintf(sysfs, sizeof(sysfs), "%s/sys", tmp);
	CHECK(fake_msr_files(msr_root, 2) == 0 && fake_snbep_socket(sysfs, 0x3f, 1, 0, 0) == 0,
	      "fake device files");
	CHECK_EQ_INT(pmon_pci_open(&p, sysfs, why, sizeof(why)), PMON_OK, why);
	CHECK_EQ_INT(pmon_msr_open(&m, msr_root, 2, O_RDWR, why, sizeof(why)), PMON_OK, why);
	if (p && m) {
		pci_reads(p);
		pci_writes(p);
		msr_access(m);
	}
	fault_disarm();
	pmon_pci_close(p);
	pmon_msr_close(m);
	fake_rmtree(tmp);
	return check_done("test_access_errno");
}
