/* test_pci_slow.c - a PCI counter block whose pread is held up between a
 * counter's two dwords (an interrupt and its softirq, or preemption, inside
 * the kernel's dword-by-dword config read) is not trusted: the counter may
 * have advanced far enough to carry although its low dword was nowhere near
 * the carry when it was read.  Such a slow block is read again.
 *
 * On fake device files, with pread interposed (this program defines it; the
 * dynamic linker resolves libpmon's calls to it): the armed read of the
 * counter's block returns the low dword, then holds up for HOLD_MS while the
 * counter advances by ADVANCE (2^28: an occupancy counter adding a hundred
 * per 1 GHz clock gets there in under 3 ms, a softirq may run for 2 ms),
 * carrying into the high dword, then returns the high dword.  The low dword
 * read is outside the 2^26 tear window, so only the time the read took can
 * tell that it may be torn.  (How many preads a quick read takes is not
 * asserted: on a loaded machine any read may be held up.) */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "fake_hw.h"
#include "pmon/pmon.h"

#define BUS1    0x7f
#define CH      1u                      /* iMC channel 1: function 1 */
#define HI0     5u                      /* the counter's high dword at start */
#define LO_T0   0xf8000000u             /* its low dword when the slow read starts */
#define ADVANCE (1u << 28)              /* counts during the hold-up */
#define HOLD_MS 2

static struct fake_world w;
static struct {
	int armed;
	uint32_t off;           /* the counter's offset in the config file */
	char match[64];         /* its config file */
	int preads;             /* preads of that file */
} slow;

static int is_target(int fd)
{
	char link[64], path[1200];
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	ssize_t n = readlink(link, path, sizeof(path) - 1);
	if (n <= 0)
		return 0;
	path[n] = '\0';
	return strstr(path, slow.match) != NULL;
}

static void put_ctr(uint32_t lo, uint32_t hi)
{
	fake_pci_put(w.sysfs, 0, BUS1, 16, CH, slow.off, lo);
	fake_pci_put(w.sysfs, 0, BUS1, 16, CH, slow.off + 4, hi);
}

ssize_t pread(int fd, void *buf, size_t n, off_t off);
ssize_t pread64(int fd, void *buf, size_t n, off_t off);

ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
	if (!is_target(fd))
		return syscall(SYS_pread64, fd, buf, n, off);
	slow.preads++;
	/* a block that holds the counter (the session's read also brings the
	 * box's controls along, so it may start before and end after it) */
	if (!slow.armed || off > (off_t)slow.off || off + (off_t)n < (off_t)slow.off + 8)
		return syscall(SYS_pread64, fd, buf, n, off);
	slow.armed = 0;
	/* up to the low dword, then the hold-up while the counter carries, then
	 * the high dword and the rest: the kernel's ascending order */
	size_t first = (size_t)((off_t)slow.off + 4 - off);
	ssize_t a = syscall(SYS_pread64, fd, buf, first, off);
	struct timespec hold = { 0, HOLD_MS * 1000000L };
	nanosleep(&hold, NULL);
	uint64_t now = ((uint64_t)HI0 << 32 | LO_T0) + ADVANCE;
	put_ctr((uint32_t)now, (uint32_t)(now >> 32));
	ssize_t b = syscall(SYS_pread64, fd, (char *)buf + first, n - first, off + (off_t)first);
	return a == (ssize_t)first && b == (ssize_t)(n - first) ? (ssize_t)n : -1;
}

ssize_t pread64(int fd, void *buf, size_t n, off_t off) { return pread(fd, buf, n, off); }

int main(void)
{
	char base[256], err[512];
	pmon_machine_t *m = NULL;
	pmon_session_t *s;
	pmon_encoding_t e;
	uint64_t v[1];

	if (fake_tmpdir(base, sizeof(base)) || fake_snbep_world(base, 1, &w)) {
		CHECK(0, "could not build the fake device files");
		return check_done("test_pci_slow");
	}
	snprintf(slow.match, sizeof(slow.match), "0000:%02x:10.%u/config", BUS1, CH);
	CHECK_EQ_INT(pmon_machine_open(&m, "msr", err, sizeof(err)), PMON_OK, err);
	if (!m)
		return check_done("test_pci_slow");
	CHECK_EQ_INT(pmon_session_create(m, &s), PMON_OK, "session");
	CHECK_EQ_INT(pmon_machine_encode(m, "snbep_unc_imc1::UNC_M_RPQ_OCCUPANCY:socket=1", &e, err,
					 sizeof(err)), PMON_OK, err);
	CHECK_EQ_INT(pmon_session_add(s, &e), PMON_OK, pmon_session_errmsg(s));
	slow.off = 0xa0 + 8 * (uint32_t)pmon_session_counter(s, 0);
	const uint64_t start = (uint64_t)HI0 << 32 | 0x10000000u;
	put_ctr((uint32_t)start, HI0);
	CHECK_EQ_INT(pmon_session_start(s), PMON_OK, pmon_session_errmsg(s));

	/* about 2^32 counts: 20 ms of wall time first, or the read refuses a
	 * count no box could make so fast (4 GHz x 64 a cycle, x2) */
	nanosleep(&(struct timespec){ 0, 20000000 }, NULL);
	put_ctr(LO_T0, HI0);
	CHECK_EQ_INT(pmon_session_read(s, v), PMON_OK, pmon_session_errmsg(s));
	CHECK_EQ_U64(v[0], ((uint64_t)HI0 << 32 | LO_T0) - start, "count before the slow read");

	/* the slow, torn read: low dword LO_T0 (far from its carry), high dword
	 * after the carry */
	slow.armed = 1;
	slow.preads = 0;
	CHECK_EQ_INT(pmon_session_read(s, v), PMON_OK, pmon_session_errmsg(s));
	CHECK_EQ_INT(slow.armed, 0, "the block was read with the hold-up");
	const uint64_t now = ((uint64_t)HI0 << 32 | LO_T0) + ADVANCE;
	CHECK_EQ_U64(v[0], now - start, "the exact count, not 2^32 more (the slow block was read again)");
	CHECK(slow.preads >= 2, "the slow block read once more (%d preads)", slow.preads);

	CHECK_EQ_INT(pmon_session_stop(s, v), PMON_OK, pmon_session_errmsg(s));
	CHECK_EQ_U64(v[0], now - start, "final count");
	pmon_session_destroy(s);
	pmon_machine_close(m);
	fake_rmtree(base);
	return check_done("test_pci_slow");
}
