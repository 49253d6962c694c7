/*
 * fake_hw.h - fake device files for the hardware backend's tests.
 *
 *   MSRs:   ROOT/N/msr, a sparse file of 2^32 bytes per CPU; MSR m is the
 *           8 bytes at offset m, so MSRs less than 8 apart overlap (unlike
 *           the kernel's msr device): a test programs MSRs at least 8 apart
 *           (one control per box: CTL0 of CBo n is 0xD10 + 0x20 n), or
 *           pmon's check of what it wrote sees its neighbour's bytes.
 *   PCI:    a sysfs tree that libpci's linux-sysfs method accepts:
 *           ROOT/devices/DDDD:BB:DD.F/{vendor,device,class,config}.
 *           libpci 3.9 needs vendor and device (read by pci_fill_info with
 *           PCI_FILL_IDENT) and config (config space reads and writes);
 *           class is written because a real tree has it.
 *   cpuinfo: a two-CPU /proc/cpuinfo of an E5-2680.
 *   hwloc:  an hwloc 2 XML topology with packages, cores, PUs and PCI devices.
 *
 * Everything lives under a temporary directory removed by fake_rmtree().
 */
#ifndef PMON_FAKE_HW_H
#define PMON_FAKE_HW_H

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define FAKE_MSR_FILE_SIZE (1ULL << 32)

/* A fresh world-readable temp dir in buf (at least 64 bytes); 0 or -1.
 * Always under /tmp: the child that drops to "nobody" must reach it. */
static inline int fake_tmpdir(char *buf, size_t len)
{
	snprintf(buf, len, "/tmp/pmon-test-XXXXXX");
	if (!mkdtemp(buf))
		return -1;
	return chmod(buf, 0755);
}

static inline int fake_mkdir_p(const char *path)
{
	char tmp[1024];

	snprintf(tmp, sizeof(tmp), "%s", path);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0755) != 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdir(tmp, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

static inline int fake_rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

static inline void fake_rmtree(const char *path)
{
	nftw(path, fake_rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static inline int fake_write_file(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, data, len);
	close(fd);
	return n == (ssize_t)len ? 0 : -1;
}

/* A journal of the run directory as pmon makes one: mode 0600. */
static inline int fake_write_journal(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = fchmod(fd, 0600) ? -1 : write(fd, data, len);
	close(fd);
	return n == (ssize_t)len ? 0 : -1;
}

/* ---------------------------------------------------------------- MSR files */

static inline int fake_msr_cpu(const char *root, int cpu)
{
	char path[1024];
	int fd, rc;

	snprintf(path, sizeof(path), "%s/%d", root, cpu);
	if (fake_mkdir_p(path))
		return -1;
	snprintf(path, sizeof(path), "%s/%d/msr", root, cpu);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return -1;
	rc = ftruncate(fd, (off_t)FAKE_MSR_FILE_SIZE);
	close(fd);
	return rc;
}

static inline int fake_msr_files(const char *root, int ncpus)
{
	for (int c = 0; c < ncpus; c++)
		if (fake_msr_cpu(root, c))
			return -1;
	return 0;
}

static inline int fake_msr_put(const char *root, int cpu, uint32_t msr, uint64_t val)
{
	char path[1024];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%d/msr", root, cpu);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	n = pwrite(fd, &val, 8, (off_t)msr);
	close(fd);
	return n == 8 ? 0 : -1;
}

/* The 8 bytes at offset msr, read straight from the file (~0 on failure). */
static inline uint64_t fake_msr_get(const char *root, int cpu, uint32_t msr)
{
	char path[1024];
	uint64_t v = ~0ULL;
	int fd;

	snprintf(path, sizeof(path), "%s/%d/msr", root, cpu);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return v;
	if (pread(fd, &v, 8, (off_t)msr) != 8)
		v = ~0ULL;
	close(fd);
	return v;
}

/* ---------------------------------------------------------------- PCI sysfs */

static inline void fake_pci_dir(char *buf, size_t len, const char *root, unsigned domain,
				unsigned bus, unsigned dev, unsigned func)
{
	snprintf(buf, len, "%s/devices/%04x:%02x:%02x.%u", root, domain, bus, dev, func);
}

/* One function with a config file of cfgsize bytes (4096 = extended space). */
static inline int fake_pci_fn(const char *root, unsigned domain, unsigned bus, unsigned dev,
			      unsigned func, uint16_t vendor, uint16_t device, size_t cfgsize)
{
	unsigned char cfg[4096];
	char dir[1024], path[1100], txt[32];

	fake_pci_dir(dir, sizeof(dir), root, domain, bus, dev, func);
	if (fake_mkdir_p(dir) || cfgsize > sizeof(cfg))
		return -1;
	snprintf(path, sizeof(path), "%s/vendor", dir);
	snprintf(txt, sizeof(txt), "0x%04x\n", vendor);
	if (fake_write_file(path, txt, strlen(txt)))
		return -1;
	snprintf(path, sizeof(path), "%s/device", dir);
	snprintf(txt, sizeof(txt), "0x%04x\n", device);
	if (fake_write_file(path, txt, strlen(txt)))
		return -1;
	snprintf(path, sizeof(path), "%s/class", dir);
	if (fake_write_file(path, "0x088000\n", 9))
		return -1;
	memset(cfg, 0, sizeof(cfg));
	cfg[0] = vendor & 0xff;
	cfg[1] = vendor >> 8;
	cfg[2] = device & 0xff;
	cfg[3] = device >> 8;
	cfg[0x0a] = 0x80;       /* class 0x0880: system peripheral, other */
	cfg[0x0b] = 0x08;
	snprintf(path, sizeof(path), "%s/config", dir);
	return fake_write_file(path, cfg, cfgsize);
}

static inline int fake_pci_put(const char *root, unsigned domain, unsigned bus, unsigned dev,
			       unsigned func, uint32_t off, uint32_t val)
{
	unsigned char b[4] = { val & 0xff, (val >> 8) & 0xff, (val >> 16) & 0xff, val >> 24 };
	char path[1100];
	ssize_t n;
	int fd;

	fake_pci_dir(path, sizeof(path), root, domain, bus, dev, func);
	strcat(path, "/config");
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	n = pwrite(fd, b, 4, (off_t)off);
	close(fd);
	return n == 4 ? 0 : -1;
}

/* The dword at off, straight from the config file (~0 on failure). */
static inline uint32_t fake_pci_get(const char *root, unsigned domain, unsigned bus, unsigned dev,
				    unsigned func, uint32_t off)
{
	unsigned char b[4];
	char path[1100];
	ssize_t n;
	int fd;

	fake_pci_dir(path, sizeof(path), root, domain, bus, dev, func);
	strcat(path, "/config");
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return ~0U;
	n = pread(fd, b, 4, (off_t)off);
	close(fd);
	if (n != 4)
		return ~0U;
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* The SNB-EP uncore functions of one socket on bus: a UBox 8086:3ce0 at
 * 11.0 with CPUNODEID/GIDNIDMAP set, and the four iMC channels 8086:3cb0,
 * 3cb1, 3cb4, 3cb5 at 16.0, 16.1, 16.4, 16.5. */
static inline int fake_snbep_socket(const char *root, unsigned bus, int with_ubox,
				    uint32_t cpunodeid, uint32_t gidnidmap)
{
	static const struct { unsigned func; uint16_t device; } imc[4] = {
		{ 0, 0x3cb0 }, { 1, 0x3cb1 }, { 4, 0x3cb4 }, { 5, 0x3cb5 },
	};

	if (with_ubox) {
		if (fake_pci_fn(root, 0, bus, 11, 0, 0x8086, 0x3ce0, 4096) ||
		    fake_pci_put(root, 0, bus, 11, 0, 0x40, cpunodeid) ||
		    fake_pci_put(root, 0, bus, 11, 0, 0x54, gidnidmap))
			return -1;
	}
	for (int i = 0; i < 4; i++)
		if (fake_pci_fn(root, 0, bus, 16, imc[i].func, 0x8086, imc[i].device, 4096))
			return -1;
	return 0;
}

/* ------------------------------------------------------------ as nobody */

/* Run fn in a child that has dropped to uid/gid 65534 (root ignores mode
 * bits, so permission errors are only seen this way).  fn returns a pmon
 * code (0 or negative) and writes its message into why.  The child's code
 * and message come back here; returns the code, or 1 when the child could
 * not drop privileges, run or report. */
static inline int fake_as_nobody(int (*fn)(void *arg, char *why, size_t len), void *arg,
				 char *why, size_t len)
{
	int pfd[2], status = 0;
	if (!len || pipe(pfd) != 0)
		return 1;
	why[0] = '\0';
	pid_t pid = fork();
	if (pid == 0) {
		char msg[512] = "";
		close(pfd[0]);
		if (setgid(65534) != 0 || setuid(65534) != 0)
			_exit(100);
		int rc = fn(arg, msg, sizeof(msg));
		if (write(pfd[1], msg, strlen(msg)) < 0)
			_exit(101);
		_exit(-rc);
	}
	close(pfd[1]);
	if (pid < 0) {
		close(pfd[0]);
		return 1;
	}
	ssize_t n = read(pfd[0], why, len - 1);
	why[n > 0 ? n : 0] = '\0';
	close(pfd[0]);
	waitpid(pid, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status) >= 100)
		return 1;
	return -WEXITSTATUS(status);
}

/* ----------------------------------------------------------------- cpuinfo */

static inline int fake_cpuinfo(const char *path)
{
	static const char text[] =
		"processor\t: 0\n"
		"vendor_id\t: GenuineIntel\n"
		"cpu family\t: 6\n"
		"model\t\t: 45\n"
		"model name\t: Intel(R) Xeon(R) CPU E5-2680 0 @ 2.70GHz\n"
		"stepping\t: 7\n"
		"microcode\t: 0x71a\n"
		"physical id\t: 0\n"
		"\n"
		"processor\t: 1\n"
		"vendor_id\t: GenuineIntel\n"
		"cpu family\t: 6\n"
		"model\t\t: 45\n"
		"model name\t: Intel(R) Xeon(R) CPU E5-2680 0 @ 2.70GHz\n"
		"stepping\t: 7\n"
		"physical id\t: 1\n"
		"\n";

	return fake_write_file(path, text, sizeof(text) - 1);
}

/* A two-CPU /proc/cpuinfo of another Intel CPU: family 6, this model. */
static inline int fake_cpuinfo_model(const char *path, unsigned model, const char *brand)
{
	char text[1024];
	int n = 0;

	for (int c = 0; c < 2; c++)
		n += snprintf(text + n, sizeof(text) - (size_t)n,
			      "processor\t: %d\nvendor_id\t: GenuineIntel\ncpu family\t: 6\n"
			      "model\t\t: %u\nmodel name\t: %s\nstepping\t: 5\nphysical id\t: %d\n\n",
			      c, model, brand, c);
	return fake_write_file(path, text, (size_t)n);
}

/* -------------------------------------------------------------- hwloc XML */

/* hwloc bitmap text of a 64-bit mask: "0x0000000f" or "0x00000001,0xffffffff". */
static inline void fake_xml_mask(char *buf, size_t len, uint64_t m)
{
	if (m >> 32)
		snprintf(buf, len, "0x%08x,0x%08x", (unsigned)(m >> 32), (unsigned)(m & 0xffffffffu));
	else
		snprintf(buf, len, "0x%08x", (unsigned)m);
}

/* The attributes hwloc 2.9 needs on every CPU-side object (without nodeset
 * and complete_nodeset its XML import crashes; without a NUMANode it refuses). */
static inline void fake_xml_sets(FILE *f, uint64_t cpus, uint64_t nodes)
{
	char c[32], n[32];

	fake_xml_mask(c, sizeof(c), cpus);
	fake_xml_mask(n, sizeof(n), nodes);
	fprintf(f, " cpuset=\"%s\" complete_cpuset=\"%s\" nodeset=\"%s\" complete_nodeset=\"%s\"",
		c, c, n, n);
}

struct fake_pcidev {
	unsigned bus, dev, func;
	uint16_t vendor, device;
	int pkg;                 /* package os_index; -1: attached to the Machine */
};

/* PU numbering: pkg-major (package 0 gets 0..k-1) or interleaved (CPU c is in
 * package c % npkg, as many BIOSes number dual-socket machines). */
static inline unsigned fake_xml_pu(int interleave, int npkg, int per_pkg, int pkg, int i)
{
	return interleave ? (unsigned)(i * npkg + pkg) : (unsigned)(pkg * per_pkg + i);
}

static inline void fake_xml_pcidev(FILE *f, const struct fake_pcidev *d, const char *indent)
{
	fprintf(f, "%s<object type=\"Bridge\" bridge_type=\"0-1\" depth=\"0\""
		" bridge_pci=\"0000:[%02x-%02x]\">\n", indent, d->bus, d->bus);
	fprintf(f, "%s  <object type=\"PCIDev\" pci_busid=\"0000:%02x:%02x.%u\""
		" pci_type=\"0880 [%04x:%04x] [0000:0000] 00\" pci_link_speed=\"0.000000\"/>\n",
		indent, d->bus, d->dev, d->func, d->vendor, d->device);
	fprintf(f, "%s</object>\n", indent);
}

/* Write an hwloc 2 XML topology: npkg packages (one NUMA node each), cores
 * per package, threads per core (npkg * cores * threads <= 64), and PCI
 * functions each under its own host bridge in its package. */
static inline int fake_hwloc_xml(const char *path, int npkg, int cores, int threads,
				 int interleave, const struct fake_pcidev *pci, int npci)
{
	int per_pkg = cores * threads;
	uint64_t all = 0;
	FILE *f = fopen(path, "w");

	if (!f || npkg * per_pkg > 64)
		return -1;
	for (int p = 0; p < npkg; p++)
		for (int i = 0; i < per_pkg; i++)
			all |= 1ULL << fake_xml_pu(interleave, npkg, per_pkg, p, i);
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<!DOCTYPE topology SYSTEM \"hwloc2.dtd\">\n<topology version=\"2.0\">\n");
	fprintf(f, "  <object type=\"Machine\" os_index=\"0\"");
	fake_xml_sets(f, all, (1ULL << npkg) - 1);
	fprintf(f, ">\n");
	for (int p = 0; p < npkg; p++) {
		uint64_t pm = 0;

		for (int i = 0; i < per_pkg; i++)
			pm |= 1ULL << fake_xml_pu(interleave, npkg, per_pkg, p, i);
		fprintf(f, "    <object type=\"Package\" os_index=\"%d\"", p);
		fake_xml_sets(f, pm, 1ULL << p);
		fprintf(f, ">\n      <object type=\"NUMANode\" os_index=\"%d\"", p);
		fake_xml_sets(f, pm, 1ULL << p);
		fprintf(f, " local_memory=\"1073741824\"/>\n");
		for (int c = 0; c < cores; c++) {
			uint64_t cm = 0;

			for (int t = 0; t < threads; t++)
				cm |= 1ULL << fake_xml_pu(interleave, npkg, per_pkg, p, c * threads + t);
			fprintf(f, "      <object type=\"Core\" os_index=\"%d\"", c);
			fake_xml_sets(f, cm, 1ULL << p);
			fprintf(f, ">\n");
			for (int t = 0; t < threads; t++) {
				unsigned pu = fake_xml_pu(interleave, npkg, per_pkg, p, c * threads + t);

				fprintf(f, "        <object type=\"PU\" os_index=\"%u\"", pu);
				fake_xml_sets(f, 1ULL << pu, 1ULL << p);
				fprintf(f, "/>\n");
			}
			fprintf(f, "      </object>\n");
		}
		for (int i = 0; i < npci; i++)
			if (pci[i].pkg == p)
				fake_xml_pcidev(f, &pci[i], "      ");
		fprintf(f, "    </object>\n");
	}
	for (int i = 0; i < npci; i++)
		if (pci[i].pkg < 0)
			fake_xml_pcidev(f, &pci[i], "    ");
	fprintf(f, "  </object>\n</topology>\n");
	return fclose(f) == 0 ? 0 : -1;
}

/* ------------------------------------------------------ a whole machine */

/* Where fake_snbep_world() put the files. */
struct fake_world {
	char msr[300], sysfs[300], cpuinfo[300], xml[300], topo[320], run[300];
};

/* A fake world's paths under base (the files are made by its maker). */
static inline void fake_world_paths(const char *base, struct fake_world *w)
{
	snprintf(w->msr, sizeof(w->msr), "%s/cpu", base);
	snprintf(w->sysfs, sizeof(w->sysfs), "%s/sys", base);
	snprintf(w->cpuinfo, sizeof(w->cpuinfo), "%s/cpuinfo", base);
	snprintf(w->xml, sizeof(w->xml), "%s/topo.xml", base);
	snprintf(w->topo, sizeof(w->topo), "xml:%s", w->xml);
	snprintf(w->run, sizeof(w->run), "%s/run", base);
}

/* Point pmon at a fake world: PMON_MSR_ROOT, PMON_PCI_SYSFS, PMON_CPUINFO,
 * PMON_TOPOLOGY and PMON_RUN_DIR name its files; no NMI watchdog, no kernel
 * uncore PMUs (whatever the host has).  0. */
static inline int fake_world_env(const char *base, const struct fake_world *w)
{
	setenv("PMON_MSR_ROOT", w->msr, 1);
	setenv("PMON_PCI_SYSFS", w->sysfs, 1);
	setenv("PMON_CPUINFO", w->cpuinfo, 1);
	setenv("PMON_TOPOLOGY", w->topo, 1);
	setenv("PMON_RUN_DIR", w->run, 1);
	char none[340];
	snprintf(none, sizeof(none), "%s/no-nmi-watchdog", base);
	setenv("PMON_NMI_WATCHDOG", none, 1);
	snprintf(none, sizeof(none), "%s/no-event-source", base);
	setenv("PMON_EVENT_SOURCE", none, 1);
	return 0;
}

/* A two-socket SNB-EP under base, as the hardware backend sees it: MSR files
 * of 4 CPUs, each socket's uncore functions (fake_snbep_socket on buses 0x3f,
 * node 0, and 0x7f, node 1; the UBoxes only when with_ubox), a cpuinfo, and
 * an hwloc XML topology of 2 packages x 2 cores that places the UBoxes.
 * PMON_MSR_ROOT, PMON_PCI_SYSFS, PMON_CPUINFO and PMON_TOPOLOGY name them;
 * PMON_RUN_DIR (box locks, journals) is base/run. */
static inline int fake_snbep_world(const char *base, int with_ubox, struct fake_world *w)
{
	struct fake_pcidev pci[2] = {
		{ 0x3f, 11, 0, 0x8086, 0x3ce0, 0 },
		{ 0x7f, 11, 0, 0x8086, 0x3ce0, 1 },
	};
	fake_world_paths(base, w);
	/* GIDNIDMAP lists node 0 then node 1 */
	if (fake_msr_files(w->msr, 4) || fake_cpuinfo(w->cpuinfo) ||
	    fake_snbep_socket(w->sysfs, 0x3f, with_ubox, 0, 0x8) ||
	    fake_snbep_socket(w->sysfs, 0x7f, with_ubox, 1, 0x8) ||
	    fake_hwloc_xml(w->xml, 2, 2, 1, 0, pci, 2))
		return -1;
	return fake_world_env(base, w);
}

/* A two-socket Nehalem-EP or Westmere-EP (family 6, model) under base:
 * MSR files of 4 CPUs, a cpuinfo, an hwloc XML topology of 2 packages x 2
 * cores, an empty PCI tree (the uncore is MSRs only); the variables as
 * fake_snbep_world() sets them. */
static inline int fake_nhm_world(const char *base, unsigned model, const char *brand,
				 struct fake_world *w)
{
	fake_world_paths(base, w);
	char dev[320];
	snprintf(dev, sizeof(dev), "%s/devices", w->sysfs);
	if (fake_msr_files(w->msr, 4) || fake_cpuinfo_model(w->cpuinfo, model, brand) ||
	    fake_mkdir_p(dev) || fake_hwloc_xml(w->xml, 2, 2, 1, 0, NULL, 0))
		return -1;
	return fake_world_env(base, w);
}

/* Run the pmon tool as a user runs it ($PMON_BIN, else build/bin/pmon)
 * with args, its stdout and stderr into out; its exit status, or -1 when it
 * could not run. */
static inline int fake_run_tool(const char *args, char *out, size_t len)
{
	const char *tool = getenv("PMON_BIN");
	char cmd[512];

	if (!tool || !*tool)
		tool = "build/bin/pmon";
	snprintf(cmd, sizeof(cmd), "%s %s 2>&1", tool, args);
	FILE *p = popen(cmd, "r");
	if (!p)
		return -1;
	size_t n = fread(out, 1, len - 1, p);
	out[n] = 0;
	int st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

#endif
