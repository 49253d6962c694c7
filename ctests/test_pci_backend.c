/*
 * test_pci_backend.c - the PCI backend (access_pci.c, libpci's sysfs method)
 * against a fake /sys/bus/pci tree holding two sockets' SNB-EP uncore.
 */
#define _GNU_SOURCE

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

static pmon_pci_addr_t A(unsigned domain, unsigned bus, unsigned dev, unsigned func)
{
	pmon_pci_addr_t a = { (uint16_t)domain, (uint8_t)bus, (uint8_t)dev, (uint8_t)func };
	return a;
}

static int same(pmon_pci_addr_t x, pmon_pci_addr_t y)
{
	return x.domain == y.domain && x.bus == y.bus && x.dev == y.dev && x.func == y.func;
}

/* Two sockets on buses 0x7f and 0x3f (created in that order, so that the
 * directory order is not the address order), an unrelated host bridge on
 * bus 0, and an iMC channel 0 ID in PCI domain 1. */
static int build_tree(const char *root)
{
	return fake_snbep_socket(root, 0x7f, 1, 0x1, 0x08) ||
	       fake_snbep_socket(root, 0x3f, 1, 0x0, 0x08) ||
	       fake_pci_fn(root, 0, 0x00, 0, 0, 0x8086, 0x3c00, 256) ||
	       fake_pci_fn(root, 1, 0x10, 16, 0, 0x8086, 0x3cb0, 4096);
}

static void test_find(struct pmon_pci_dev *p)
{
	pmon_pci_addr_t out[8], sentinel = A(0xeeee, 0xee, 0xe, 0xe);
	int n;

	n = pmon_pci_find(p, 0x8086, 0x3ce0, out, 8);
	CHECK_EQ_INT(n, 2, "UBox count");
	CHECK(same(out[0], A(0, 0x3f, 11, 0)), "UBox 0 is 0000:3f:0b.0, got %02x:%02x.%x",
	      out[0].bus, out[0].dev, out[0].func);
	CHECK(same(out[1], A(0, 0x7f, 11, 0)), "UBox 1 is 0000:7f:0b.0, got %02x:%02x.%x",
	      out[1].bus, out[1].dev, out[1].func);

	n = pmon_pci_find(p, 0x8086, 0x3cb0, out, 8);
	CHECK_EQ_INT(n, 3, "iMC channel 0 count (two domains)");
	CHECK(same(out[0], A(0, 0x3f, 16, 0)) && same(out[1], A(0, 0x7f, 16, 0)) &&
	      same(out[2], A(1, 0x10, 16, 0)), "iMC ch0 in (domain, bus) order");

	/* max smaller than the count: fills max, returns the count. */
	out[1] = sentinel;
	n = pmon_pci_find(p, 0x8086, 0x3cb0, out, 1);
	CHECK_EQ_INT(n, 3, "count with max 1");
	CHECK(same(out[0], A(0, 0x3f, 16, 0)), "first of max 1");
	CHECK(same(out[1], sentinel), "nothing written past max");
	CHECK_EQ_INT(pmon_pci_find(p, 0x8086, 0x3cb0, NULL, 0), 3, "count only");

	n = pmon_pci_find(p, 0x8086, 0x3cb5, out, 8);
	CHECK_EQ_INT(n, 2, "iMC channel 3 count");
	CHECK(same(out[0], A(0, 0x3f, 16, 5)) && same(out[1], A(0, 0x7f, 16, 5)),
	      "iMC ch3 at 16.5");
	n = pmon_pci_find(p, 0x8086, 0x3cb4, out, 8);
	CHECK(n == 2 && out[0].func == 4 && out[1].bus == 0x7f, "iMC ch2 at 16.4");
	CHECK_EQ_INT(pmon_pci_find(p, 0x8086, 0x3c86, out, 8), 0, "absent device");
	CHECK_EQ_INT(pmon_pci_find(p, 0x10de, 0x3cb0, out, 8), 0, "other vendor");
	CHECK_EQ_INT(pmon_pci_find(p, 0x8086, 0x3c00, out, 8), 1, "bus 0 bridge");
	CHECK_EQ_INT(pmon_pci_find(p, 0x8086, 0x3cb0, NULL, 2), PMON_EINVAL, "NULL out");
}

static void test_read_write(struct pmon_pci_dev *p, const char *root)
{
	uint32_t v = 0;

	CHECK_EQ_INT(pmon_pci_read(p, A(0, 0x3f, 11, 0), 0x00, &v, op_why, sizeof op_why), PMON_OK, "read id");
	CHECK_EQ_U64(v, 0x3ce08086, "UBox vendor/device dword");
	CHECK_EQ_INT(pmon_pci_read(p, A(0, 0x7f, 11, 0), 0x40, &v, op_why, sizeof op_why), PMON_OK, "read CPUNODEID");
	CHECK_EQ_U64(v, 0x1, "bus 0x7f CPUNODEID");
	CHECK_EQ_INT(pmon_pci_read(p, A(0, 0x3f, 11, 0), 0x54, &v, op_why, sizeof op_why), PMON_OK, "read GIDNIDMAP");
	CHECK_EQ_U64(v, 0x08, "bus 0x3f GIDNIDMAP");

	/* Low offset: iMC counter 0 low dword. */
	CHECK_EQ_INT(pmon_pci_write(p, A(0, 0x7f, 16, 1), 0xa0, 0x89abcdef, op_why, sizeof op_why), PMON_OK, "write 0xa0");
	CHECK_EQ_INT(pmon_pci_read(p, A(0, 0x7f, 16, 1), 0xa0, &v, op_why, sizeof op_why), PMON_OK, "read 0xa0");
	CHECK_EQ_U64(v, 0x89abcdef, "0xa0 through the API");
	CHECK_EQ_U64(fake_pci_get(root, 0, 0x7f, 16, 1, 0xa0), 0x89abcdef, "0xa0 in the file");
	CHECK_EQ_U64(fake_pci_get(root, 0, 0x7f, 16, 1, 0xa4), 0, "0xa4 untouched");
	CHECK_EQ_U64(fake_pci_get(root, 0, 0x3f, 16, 1, 0xa0), 0, "other socket untouched");

	/* Extended offset: QPI MATCH0 position. */
	CHECK_EQ_INT(pmon_pci_write(p, A(0, 0x3f, 16, 0), 0x228, 0x00100020, op_why, sizeof op_why), PMON_OK, "write 0x228");
	CHECK_EQ_INT(pmon_pci_read(p, A(0, 0x3f, 16, 0), 0x228, &v, op_why, sizeof op_why), PMON_OK, "read 0x228");
	CHECK_EQ_U64(v, 0x00100020, "0x228 through the API");
	CHECK_EQ_U64(fake_pci_get(root, 0, 0x3f, 16, 0, 0x228), 0x00100020, "0x228 in the file");
	CHECK_EQ_INT(pmon_pci_write(p, A(0, 0x3f, 16, 0), 0xffc, 0xfeedf00d, op_why, sizeof op_why), PMON_OK, "write 0xffc");
	CHECK_EQ_U64(fake_pci_get(root, 0, 0x3f, 16, 0, 0xffc), 0xfeedf00d, "0xffc in the file");

	/* Bad offsets and addresses. */
	CHECK_EQ_INT(pmon_pci_read(p, A(0, 0x3f, 16, 0), 0x1000, &v, op_why, sizeof op_why), PMON_EINVAL, "offset 0x1000");
	CHECK_EQ_INT(pmon_pci_read(p, A(0, 0x3f, 16, 0), 0x22a, &v, op_why, sizeof op_why), PMON_EINVAL, "unaligned");
	CHECK_EQ_INT(pmon_pci_write(p, A(0, 0x3f, 16, 0), 0x1004, 0, op_why, sizeof op_why), PMON_EINVAL, "write 0x1004");
	CHECK_EQ_INT(pmon_pci_read(p, A(0, 0x3f, 16, 2), 0xa0, &v, op_why, sizeof op_why), PMON_ENODEV, "absent function");
	CHECK(strstr(op_why, "0000:3f:10.2") != NULL, "message names it: %s",
	      op_why);
}

/* A config file of 64 bytes: what a non-root read of sysfs gives. */
static void test_short_config(void)
{
	struct pmon_pci_dev *p = NULL;
	char root[128], why[256] = "";
	uint32_t v = 0;

	snprintf(root, sizeof(root), "%s/short", tmp);
	CHECK(fake_pci_fn(root, 0, 0x3f, 11, 0, 0x8086, 0x3ce0, 64) == 0, "64-byte config");
	CHECK(fake_pci_fn(root, 0, 0x7f, 11, 0, 0x8086, 0x3ce0, 256) == 0, "256-byte config");
	CHECK_EQ_INT(pmon_pci_open(&p, root, why, sizeof(why)), PMON_OK, "open");
	if (!p)
		return;
	CHECK_EQ_INT(pmon_pci_read(p, A(0, 0x3f, 11, 0), 0x00, &v, op_why, sizeof op_why), PMON_OK, "header readable");
	CHECK_EQ_U64(v, 0x3ce08086, "header value");
	CHECK_EQ_INT(pmon_pci_read(p, A(0, 0x3f, 11, 0), 0x40, &v, op_why, sizeof op_why), PMON_EPERM, "0x40 of 64 bytes");
	CHECK(strstr(op_why, "PCI config space not readable beyond the header (need root)")
	      != NULL, "message: %s", op_why);
	CHECK_EQ_INT(pmon_pci_read(p, A(0, 0x3f, 11, 0), 0x228, &v, op_why, sizeof op_why), PMON_EPERM, "0x228 of 64 bytes");

	/* 256 bytes: standard space fine, extended space missing. */
	CHECK_EQ_INT(pmon_pci_read(p, A(0, 0x7f, 11, 0), 0xfc, &v, op_why, sizeof op_why), PMON_OK, "0xfc of 256 bytes");
	CHECK_EQ_INT(pmon_pci_read(p, A(0, 0x7f, 11, 0), 0x228, &v, op_why, sizeof op_why), PMON_EIO, "0x228 of 256 bytes");
	CHECK(strstr(op_why, "extended") && strstr(op_why, "0x228"),
	      "message: %s", op_why);
	pmon_pci_close(p);
}

static void test_missing_root(void)
{
	struct pmon_pci_dev *p = (struct pmon_pci_dev *)1;
	char root[128], why[256] = "";

	snprintf(root, sizeof(root), "%s/nosuch", tmp);
	CHECK_EQ_INT(pmon_pci_open(&p, root, why, sizeof(why)), PMON_ENODEV, "missing sysfs root");
	CHECK(p == NULL, "no device on failure");
	CHECK(strstr(why, root) && strstr(why, "/devices missing"), "message: %s", why);
}

/* libpci's error() callback would exit the process: it must not. */
static void test_libpci_errors(void)
{
	struct pmon_pci_dev *p = NULL;
	char root[128], path[256], why[256] = "";
	pmon_pci_addr_t out[2];

	snprintf(root, sizeof(root), "%s/broken", tmp);
	CHECK(fake_pci_fn(root, 0, 0x3f, 11, 0, 0x8086, 0x3ce0, 4096) == 0, "good function");
	CHECK(fake_pci_fn(root, 0, 0x7f, 11, 0, 0x8086, 0x3ce0, 4096) == 0, "second function");
	snprintf(path, sizeof(path), "%s/devices/0000:7f:0b.0/vendor", root);
	CHECK(unlink(path) == 0, "remove its vendor file");
	CHECK_EQ_INT(pmon_pci_open(&p, root, why, sizeof(why)), PMON_OK, "open despite it");
	if (p) {
		CHECK_EQ_INT(pmon_pci_find(p, 0x8086, 0x3ce0, out, 2), 1, "unreadable one left out");
		CHECK_EQ_U64(out[0].bus, 0x3f, "the readable one");
		pmon_pci_close(p);
	}
	/* An entry libpci cannot parse (its scan would call error()). */
	snprintf(path, sizeof(path), "%s/devices/garbage", root);
	CHECK(fake_mkdir_p(path) == 0, "unparsable entry");
	why[0] = '\0';
	CHECK_EQ_INT(pmon_pci_open(&p, root, why, sizeof(why)), PMON_EIO, "scan error returned");
	CHECK(strstr(why, "unexpected entry garbage") != NULL, "message: %s", why);
}

/* A config file unreadable for the caller (mode 0600 as nobody). */
static int read_as_caller(void *root, char *why, size_t len)
{
	struct pmon_pci_dev *p = NULL;
	uint32_t v;
	int rc = pmon_pci_open(&p, root, why, len);
	if (rc == 0) {
		rc = pmon_pci_read(p, A(0, 0x7f, 11, 0), 0x40, &v, op_why, sizeof op_why);
		snprintf(why, len, "%s", op_why);
		pmon_pci_close(p);
	}
	return rc;
}

static void test_permission(const char *root)
{
	char why[256] = "";

	if (geteuid() != 0)
		return;
	int rc = fake_as_nobody(read_as_caller, (void *)root, why, sizeof(why));
	CHECK(rc <= 0, "child exited");
	CHECK_EQ_INT(rc, PMON_EPERM, "config read as nobody");
	CHECK(strstr(why, "need root") && strstr(why, "0000:7f:0b.0"), "message: %s", why);
}

int main(void)
{
	struct pmon_pci_dev *p = NULL;
	char root[128], cfg[256], why[256] = "";

	if (fake_tmpdir(tmp, sizeof(tmp)) != 0) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(root, sizeof(root), "%s/sys", tmp);
	CHECK(build_tree(root) == 0, "fake sysfs tree");
	CHECK_EQ_INT(pmon_pci_open(&p, root, why, sizeof(why)), PMON_OK, "open fake tree");
	CHECK(p != NULL, "device: %s", why);
	if (p) {
		test_find(p);
		test_read_write(p, root);
		pmon_pci_close(p);
	}
	snprintf(cfg, sizeof(cfg), "%s/devices/0000:7f:0b.0/config", root);
	CHECK(chmod(cfg, 0600) == 0, "config 0600");
	test_permission(root);
	test_short_config();
	test_missing_root();
	test_libpci_errors();
	fake_rmtree(tmp);
	return check_done("test_pci_backend");
}
