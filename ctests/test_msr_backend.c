/*
 * test_msr_backend.c - the MSR backend (access_msr.c) against sparse fake
 * /dev/cpu/N/msr files.
 */
#define _GNU_SOURCE

#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "fake_hw.h"
#include "pmon/pmon.h"
#include "access.h"

/* The reason a register access gives when it fails. */
static char op_why[256];


static char tmp[64];

static void path_of(char *buf, size_t len, const char *sub)
{
	snprintf(buf, len, "%s/%s", tmp, sub);
}

static void test_round_trip(void)
{
	struct pmon_msr_dev *m = NULL;
	char root[128], why[256] = "";
	uint64_t v = 0;
	int rc;

	path_of(root, sizeof(root), "cpu");
	CHECK(fake_msr_files(root, 4) == 0, "fake MSR files");
	CHECK(fake_msr_put(root, 0, 0x186, 0x5301b7) == 0, "preset");
	CHECK(fake_msr_put(root, 3, 0xc10, 0xdeadbeefcafeULL) == 0, "preset");

	rc = pmon_msr_open(&m, root, 4, O_RDWR, why, sizeof(why));
	CHECK_EQ_INT(rc, PMON_OK, "open 4 CPUs");
	CHECK(m != NULL, "device returned: %s", why);
	if (!m)
		return;

	CHECK_EQ_INT(pmon_msr_read(m, 0, 0x186, &v, op_why, sizeof op_why), PMON_OK, "read cpu0 0x186");
	CHECK_EQ_U64(v, 0x5301b7, "cpu0 IA32_PERFEVTSEL0");
	CHECK_EQ_INT(pmon_msr_read(m, 3, 0xc10, &v, op_why, sizeof op_why), PMON_OK, "read cpu3 0xc10");
	CHECK_EQ_U64(v, 0xdeadbeefcafeULL, "cpu3 U_MSR_PMON_CTL0");
	CHECK_EQ_INT(pmon_msr_read(m, 1, 0xc10, &v, op_why, sizeof op_why), PMON_OK, "read cpu1 0xc10");
	CHECK_EQ_U64(v, 0, "cpu1 0xc10 (other CPU's file untouched)");

	/* Writes land at offset = MSR number of the right CPU's file. */
	CHECK_EQ_INT(pmon_msr_write(m, 1, 0xd10, 0x400334, op_why, sizeof op_why), PMON_OK, "write cpu1 0xd10");
	CHECK_EQ_INT(pmon_msr_read(m, 1, 0xd10, &v, op_why, sizeof op_why), PMON_OK, "read back");
	CHECK_EQ_U64(v, 0x400334, "cpu1 C0_MSR_PMON_CTL0 through the API");
	CHECK_EQ_U64(fake_msr_get(root, 1, 0xd10), 0x400334, "cpu1 file at offset 0xd10");
	CHECK_EQ_U64(fake_msr_get(root, 1, 0xd08), 0, "cpu1 file at 0xd08 untouched");
	CHECK_EQ_U64(fake_msr_get(root, 1, 0xd18), 0, "cpu1 file at 0xd18 untouched");
	CHECK_EQ_U64(fake_msr_get(root, 0, 0xd10), 0, "cpu0 file at 0xd10 untouched");

	/* An MSR number above 2^31 (offset beyond a 32-bit off_t). */
	CHECK_EQ_INT(pmon_msr_write(m, 2, 0xc0000080, 0x0123456789abcdefULL, op_why, sizeof op_why), PMON_OK,
		     "write cpu2 0xc0000080");
	CHECK_EQ_U64(fake_msr_get(root, 2, 0xc0000080), 0x0123456789abcdefULL,
		     "cpu2 file at offset 0xc0000080");
	CHECK_EQ_INT(pmon_msr_read(m, 2, 0xc0000080, &v, op_why, sizeof op_why), PMON_OK, "read cpu2 0xc0000080");
	CHECK_EQ_U64(v, 0x0123456789abcdefULL, "cpu2 0xc0000080 through the API");

	/* CPU numbers outside the opened range. */
	CHECK_EQ_INT(pmon_msr_read(m, 4, 0x186, &v, op_why, sizeof op_why), PMON_ERANGE, "cpu 4 of 4");
	CHECK_EQ_INT(pmon_msr_write(m, -1, 0x186, 0, op_why, sizeof op_why), PMON_ERANGE, "cpu -1");
	CHECK(strstr(op_why, "CPU -1") != NULL, "range message: %s",
	      op_why);
	pmon_msr_close(m);

	/* Read-only open: reads work, writes are refused. */
	rc = pmon_msr_open(&m, root, 4, O_RDONLY, why, sizeof(why));
	CHECK_EQ_INT(rc, PMON_OK, "open read-only");
	if (m) {
		CHECK_EQ_INT(pmon_msr_read(m, 1, 0xd10, &v, op_why, sizeof op_why), PMON_OK, "read-only read");
		CHECK_EQ_U64(v, 0x400334, "read-only value");
		CHECK_EQ_INT(pmon_msr_write(m, 1, 0xd10, 1, op_why, sizeof op_why), PMON_EINVAL, "write when read-only");
		CHECK_EQ_U64(fake_msr_get(root, 1, 0xd10), 0x400334, "value unchanged");
		pmon_msr_close(m);
	}
	CHECK_EQ_INT(pmon_msr_open(&m, root, 0, O_RDWR, why, sizeof(why)), PMON_EINVAL, "0 CPUs");
	CHECK(m == NULL, "no device on failure");
}

static void test_missing(void)
{
	struct pmon_msr_dev *m = (struct pmon_msr_dev *)1;
	char root[128], want[160], why[256] = "";
	int rc;

	path_of(root, sizeof(root), "nomsr");
	CHECK(fake_mkdir_p(root) == 0, "mkdir");
	rc = pmon_msr_open(&m, root, 2, O_RDWR, why, sizeof(why));
	CHECK_EQ_INT(rc, PMON_ENODEV, "missing msr file");
	CHECK(m == NULL, "no device on failure");
	snprintf(want, sizeof(want), "%s/0/msr missing", root);
	CHECK(strstr(why, want) != NULL, "message names the file: %s", why);
	CHECK(strstr(why, "modprobe msr") != NULL, "message says modprobe msr: %s", why);
}

static void test_offline_cpu(void)
{
	struct pmon_msr_dev *m = NULL;
	char root[128], why[256] = "";
	uint64_t v;

	path_of(root, sizeof(root), "gap");
	CHECK(fake_msr_cpu(root, 0) == 0 && fake_msr_cpu(root, 2) == 0, "CPUs 0 and 2");
	CHECK(fake_msr_put(root, 2, 0x1a6, 0x10002) == 0, "preset");
	CHECK_EQ_INT(pmon_msr_open(&m, root, 3, O_RDWR, why, sizeof(why)), PMON_OK,
		     "CPU 1 absent is not fatal");
	if (!m)
		return;
	CHECK_EQ_INT(pmon_msr_read(m, 1, 0x1a6, &v, op_why, sizeof op_why), PMON_ENODEV, "read absent CPU 1");
	CHECK(strstr(op_why, "CPU 1") != NULL, "message: %s", op_why);
	CHECK_EQ_INT(pmon_msr_read(m, 2, 0x1a6, &v, op_why, sizeof op_why), PMON_OK, "read CPU 2");
	CHECK_EQ_U64(v, 0x10002, "CPU 2 MSR_OFFCORE_RSP_0");
	pmon_msr_close(m);
}

static void test_directory(void)
{
	struct pmon_msr_dev *m = NULL;
	char root[128], dir[160], why[256] = "";

	path_of(root, sizeof(root), "dir");
	snprintf(dir, sizeof(dir), "%s/0/msr", root);
	CHECK(fake_mkdir_p(dir) == 0, "directory in place of the file");
	CHECK_EQ_INT(pmon_msr_open(&m, root, 1, O_RDWR, why, sizeof(why)), PMON_ENODEV,
		     "directory, read/write");
	CHECK(strstr(why, "directory") != NULL && strstr(why, dir) != NULL, "message: %s", why);
	why[0] = '\0';
	/* open(O_RDONLY) of a directory succeeds: the type check must catch it. */
	CHECK_EQ_INT(pmon_msr_open(&m, root, 1, O_RDONLY, why, sizeof(why)), PMON_ENODEV,
		     "directory, read-only");
	CHECK(strstr(why, "directory") != NULL, "message: %s", why);
	CHECK(m == NULL, "no device");
}

static void test_short_file(void)
{
	struct pmon_msr_dev *m = NULL;
	char root[128], file[160], why[256] = "";
	unsigned char zero[0x100] = { 0 };
	uint64_t v = 7;

	path_of(root, sizeof(root), "short");
	snprintf(file, sizeof(file), "%s/0", root);
	CHECK(fake_mkdir_p(file) == 0, "mkdir");
	strcat(file, "/msr");
	CHECK(fake_write_file(file, zero, sizeof(zero)) == 0, "256-byte msr file");
	CHECK_EQ_INT(pmon_msr_open(&m, root, 1, O_RDWR, why, sizeof(why)), PMON_OK, "open");
	if (!m)
		return;
	CHECK_EQ_INT(pmon_msr_read(m, 0, 0x10, &v, op_why, sizeof op_why), PMON_OK, "read inside the file");
	CHECK_EQ_U64(v, 0, "value inside");
	CHECK_EQ_INT(pmon_msr_read(m, 0, 0x1a6, &v, op_why, sizeof op_why), PMON_EIO, "read past EOF");
	CHECK(strstr(op_why, "0x1a6") && strstr(op_why, "CPU 0"),
	      "message names MSR and CPU: %s", op_why);
	/* what is known: a short read; the MSR may not exist on this CPU */
	CHECK(strstr(op_why, "short read of 0 of 8 bytes") && strstr(op_why, "may not exist on this CPU") &&
	      !strstr(op_why, "does not implement"), "message: %s", op_why);
	CHECK_EQ_INT(pmon_msr_read(m, 0, 0xfc, &v, op_why, sizeof op_why), PMON_EIO, "read straddling EOF");
	pmon_msr_close(m);
}

/* EACCES, as an unprivileged user: a child drops to nobody (root ignores
 * mode bits, so root itself cannot see this error). */
static int open_msr(void *root, char *why, size_t len)
{
	struct pmon_msr_dev *m = NULL;
	int rc = pmon_msr_open(&m, root, 1, O_RDWR, why, len);
	if (rc == 0)
		pmon_msr_close(m);
	return rc;
}

static void test_permission(void)
{
	char root[128], why[256] = "";

	path_of(root, sizeof(root), "cpu");   /* files are mode 0600, owned by root */
	if (geteuid() != 0) {
		CHECK_EQ_INT(open_msr(root, why, sizeof(why)), PMON_EPERM, "open as non-root");
		CHECK(strstr(why, "CAP_SYS_RAWIO") != NULL, "message: %s", why);
		return;
	}
	int rc = fake_as_nobody(open_msr, root, why, sizeof(why));
	CHECK(rc <= 0, "child exited");
	CHECK_EQ_INT(rc, PMON_EPERM, "open as nobody gives PMON_EPERM");
	CHECK(strstr(why, "CAP_SYS_RAWIO") != NULL && strstr(why, "root") != NULL,
	      "message names root and CAP_SYS_RAWIO: %s", why);
	CHECK(strstr(why, "/0/msr") != NULL, "message names the file: %s", why);
}

int main(void)
{
	if (fake_tmpdir(tmp, sizeof(tmp)) != 0) {
		perror("mkdtemp");
		return 1;
	}
	test_round_trip();
	test_missing();
	test_offline_cpu();
	test_directory();
	test_short_file();
	test_permission();
	fake_rmtree(tmp);
	return check_done("test_msr_backend");
}
