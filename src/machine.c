/*
 * machine.c - open a backend, learn the topology and find the PMON boxes.
 *
 * "sim" opens the emulated machine; "msr" (alias "hw") and "auto" open the
 * hardware, and refuse a CPU no registered generation serves (generation.h)
 * or one without readable MSRs and uncore PCI functions.  The machine's CPU
 * (on the emulated machine, the one its shape names) selects the generation
 * whose boxes it counts with.  Opening writes no register.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <stdint.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pmon/pmon.h"
#include "machine.h"
#include "fold.h"
#include "pmu_users.h"
#include "sim_load.h"
#include "cpuinfo.h"
#include "encode.h"
#include "env.h"
#include "why.h"

static int core_pmu_native(const struct pmon_box_type *t, unsigned model)
{
	for (int i = 0; i < 8 && t->core_models[i]; i++)
		if (t->core_models[i] == model)
			return 1;
	return 0;
}

/* Instances per socket of a PMON_BOX_PER_CORE box type t. */
static int per_core(const struct pmon_machine *m, const struct pmon_box_type *t)
{
	return m->topo.cores_per_socket < t->max_boxes ? m->topo.cores_per_socket : t->max_boxes;
}

/* Decide, for every PMU and socket, whether the box exists and where. */
static int find_boxes(struct pmon_machine *m, char *why, size_t whylen)
{
	int npmus;
	const struct pmon_pmu *pmus = pmon_catalog(&npmus);
	pmon_pci_addr_t found[64];

	for (int p = 0; p < npmus; p++) {
		const struct pmon_box_type *t = pmus[p].type;
		for (int s = 0; s < m->topo.nsockets && s < PMON_MAX_SOCKETS; s++) {
			struct pmon_box_loc *loc = &m->loc[p][s];
			memset(loc, 0, sizeof(*loc));
			if (t->space == PMON_SPACE_CORE) {
				loc->present = core_pmu_native(t, m->id.model);
				continue;
			}
			if (pmus[p].gen != m->gen)       /* another generation's box */
				continue;
			if (t->space == PMON_SPACE_MSR) {
				loc->present = !(t->quirks & PMON_BOX_PER_CORE) ||
					       pmus[p].instance < per_core(m, t);
				continue;
			}
			/* PCI: the function with the table's device ID on this socket's bus */
			const struct pmon_pci_fn *fn = &t->pci[pmus[p].instance];
			char reason[PMON_WHY_LEN];
			int n = m->acc->ops->pci_find(m->acc, 0x8086, fn->devid, found, 64,
						      reason, sizeof reason);
			if (n < 0)
				return pmon_why(why, whylen, n, "PCI scan for 8086:%04x failed: %s",
					   fn->devid, reason);
			for (int i = 0; i < n && i < 64; i++) {
				if (pmon_busmap_socket(&m->bm, found[i]) != s)
					continue;
				if (found[i].dev != fn->dev || found[i].func != fn->func) {
					pmon_why_add(m->warnings, sizeof(m->warnings), "\n",
						     "8086:%04x found at %02x:%02x.%x, expected device %u function %u; not used",
						     fn->devid, found[i].bus, found[i].dev, found[i].func, fn->dev, fn->func);
					continue;
				}
				loc->present = 1;
				loc->pci = found[i];
			}
			const struct pmon_pci_fn *xf = &t->pci_extra[pmus[p].instance];
			if (loc->present && xf->devid) {
				n = m->acc->ops->pci_find(m->acc, 0x8086, xf->devid, found, 64, NULL, 0);
				for (int i = 0; i < n && i < 64; i++)
					if (pmon_busmap_socket(&m->bm, found[i]) == s &&
					    found[i].dev == xf->dev && found[i].func == xf->func) {
						loc->has_extra = 1;
						loc->extra = found[i];
					}
				if (!loc->has_extra)
					pmon_why_add(m->warnings, sizeof(m->warnings), "\n",
						     "socket %d: %s has no match/mask function 8086:%04x; its filters are unusable",
						     s, pmus[p].name, xf->devid);
			}
		}
	}
	return PMON_OK;
}

/* Earlier versions locked the emulated machine's boxes in files of a
 * directory $PMON_RUN_DIR (or $TMPDIR, /tmp)/pmon-sim-PID-ADDR, which a
 * killed process left behind: remove those of this user whose process is
 * gone (rmdir: empty ones only). */
static void sim_dirs_clean(void)
{
	const char *base = pmon_env_path("PMON_RUN_DIR", pmon_env_path("TMPDIR", "/tmp"));
	DIR *d = opendir(base);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		char *end;
		long pid;
		if (strncmp(e->d_name, "pmon-sim-", 9) || (pid = strtol(e->d_name + 9, &end, 10)) <= 0 ||
		    *end != '-' || pid == (long)getpid() || !kill((pid_t)pid, 0) || errno != ESRCH)
			continue;
		struct stat st;
		if (!fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) && S_ISDIR(st.st_mode) &&
		    st.st_uid == geteuid())
			unlinkat(dirfd(d), e->d_name, AT_REMOVEDIR);
	}
	closedir(d);
}

static int open_sim(struct pmon_machine *m, char *why, size_t whylen)
{
	char synth[128] = "synthetic:";
	int rc = pmon_sim_load_open(&m->acc, why, whylen);
	if (rc)
		return rc;
	m->emulated = 1;
	if (!m->acc->ops->topology ||
	    m->acc->ops->topology(m->acc, synth + 10, sizeof(synth) - 10))
		return pmon_why(why, whylen, PMON_EIO, "the emulated machine gave no topology");
	return pmon_topo_load(&m->topo, synth, why, whylen);
}

static int open_hw(struct pmon_machine *m, char *why, size_t whylen)
{
	int rc = pmon_cpuinfo_read(pmon_env_path("PMON_CPUINFO", NULL), &m->id);
	if (rc)
		return pmon_why(why, whylen, PMON_ENOSUPP,
			   "cannot identify the CPU (%s unreadable); "
			   "set PMON_BACKEND=sim to use the emulated machine",
			   pmon_env_path("PMON_CPUINFO", "/proc/cpuinfo"));
	m->gen = pmon_generation_for(m->id.vendor, m->id.family, m->id.model);
	char cpus[512];
	if (!m->gen && pmon_generation_refused(m->id.vendor, m->id.family, m->id.model, cpus,
					       sizeof(cpus)))
		return pmon_why(why, whylen, PMON_ENOSUPP,
			   "found %s, which pmon does not serve: %s; set PMON_BACKEND=sim to use the "
			   "emulated %s machine", m->id.brand[0] ? m->id.brand : "an unknown CPU", cpus,
			   pmon_generation_at(0)->title);
	if (!m->gen) {
		pmon_generation_cpus(cpus, sizeof(cpus));
		return pmon_why(why, whylen, PMON_ENOSUPP,
			   "not a %s: found %s (%s family %u model %u); set PMON_BACKEND=sim to use "
			   "the emulated %s machine", cpus,
			   m->id.brand[0] ? m->id.brand : "an unknown CPU", m->id.vendor,
			   m->id.family, m->id.model, pmon_generation_at(0)->title);
	}
	/* PMON_TOPOLOGY ("xml:PATH" or "synthetic:DESC") replaces the live
	 * topology, e.g. with an hwloc export of the machine being studied */
	rc = pmon_topo_load(&m->topo, pmon_env_path("PMON_TOPOLOGY", NULL), why, whylen);
	if (rc)
		return rc;
	rc = pmon_hw_access_open(&m->acc, m->topo.ncpus, why, whylen);
	if (rc)
		pmon_why_add(why, whylen, "", "; or set PMON_BACKEND=sim to use the emulated machine");
	return rc;
}

int pmon_machine_open(pmon_machine_t **out, const char *backend, char *why, size_t whylen)
{
	int rc;

	*out = NULL;
	if (why && whylen)
		why[0] = 0;
	if (!backend)
		backend = getenv("PMON_BACKEND");
	if (!backend || !*backend)
		backend = "auto";
	int is_sim = !strcasecmp(backend, "sim");
	if (!is_sim && strcasecmp(backend, "auto") && strcasecmp(backend, "msr") &&
	    strcasecmp(backend, "hw"))
		return pmon_why(why, whylen, PMON_EINVAL,
			   "PMON_BACKEND=%s is not a backend: use sim, msr or auto", backend);

	struct pmon_machine *m = calloc(1, sizeof(*m));
	if (!m)
		return pmon_why(why, whylen, PMON_ENOMEM, "out of memory");
	snprintf(m->backend, sizeof(m->backend), "%s", is_sim ? "sim" : "msr");
	pmon_registry_init(&m->sessions);
	rc = is_sim ? open_sim(m, why, whylen) : open_hw(m, why, whylen);
	if (rc)
		goto fail;
	if (is_sim && (rc = m->acc->ops->cpu_ident(m->acc, &m->id, why, whylen)))
		goto fail;
	if (is_sim && !(m->gen = pmon_generation_for(m->id.vendor, m->id.family, m->id.model))) {
		rc = pmon_why(why, whylen, PMON_ENOSUPP, "the emulated machine is a %s (%s family %u "
			      "model %u), which no generation of pmon serves", m->id.brand,
			      m->id.vendor, m->id.family, m->id.model);
		goto fail;
	}
	for (int i = 0; i < PMON_MAX_SOCKETS; i++)      /* no PCI bus until mapped */
		m->bm.socket_bus[i] = m->bm.socket_node[i] = -1;
	rc = m->gen->socket_map ? m->gen->socket_map(m->acc, &m->topo, &m->bm, why, whylen) : PMON_OK;
	if (rc) {
		if (!is_sim && rc == PMON_ENODEV)
			pmon_why_add(why, whylen, "", " (the uncore PCI functions may be hidden by the BIOS); "
				     "set PMON_BACKEND=sim to use the emulated machine");
		goto fail;
	}
	if (m->bm.warn[0])
		pmon_why_add(m->warnings, sizeof(m->warnings), "\n", "%s", m->bm.warn);
	if (m->gen->socket_map && m->bm.nsockets != m->topo.nsockets)
		pmon_why_add(m->warnings, sizeof(m->warnings), "\n",
			     "hwloc reports %d socket(s) but %d UBox function(s) were found",
			     m->topo.nsockets, m->bm.nsockets);
	if ((rc = find_boxes(m, why, whylen)))
		goto fail;
	/* box locks: the hardware's are shared by every process of the system
	 * (files of the run directory); the emulated machine exists only in
	 * its process, so its locks are kept there (boxlock.h) */
	if (is_sim) {
		m->run_dir[0] = 0;
		sim_dirs_clean();
	} else {
		pmon_run_dir(m->run_dir, sizeof(m->run_dir));
	}
	pmon_boxlocks_init(&m->locks, m->run_dir);
	/* other users of the PMU: warnings now, and part of busy refusals */
	if (!is_sim)
		pmon_pmu_users(m, m->pmu_users, sizeof(m->pmu_users));
	if (m->pmu_users[0])
		pmon_why_add(m->warnings, sizeof(m->warnings), "\n", "%s", m->pmu_users);
	pmon_fold_init(&m->fold, m->acc, pmon_sessions_fold, m);
	m->fold_ready = 1;
	snprintf(m->cpu_name, sizeof(m->cpu_name), "%s", m->id.brand);
	*out = m;
	return PMON_OK;
fail:
	pmon_machine_close(m);
	return rc;
}

void pmon_machine_close(pmon_machine_t *m)
{
	if (!m)
		return;
	if (m->fold_ready)
		pmon_fold_fini(&m->fold);
	pmon_registry_fini(&m->sessions);
	if (m->fold_ready) {
		pmon_boxlocks_fini(&m->locks);
	}
	if (m->acc && m->acc->ops->close)
		m->acc->ops->close(m->acc);
	pmon_topo_free(&m->topo);
	free(m);
}

const char *pmon_machine_backend(const pmon_machine_t *m) { return m->backend; }
const char *pmon_machine_cpu_name(const pmon_machine_t *m) { return m->cpu_name; }
int pmon_machine_nsockets(const pmon_machine_t *m) { return m->topo.nsockets; }
int pmon_machine_ncpus(const pmon_machine_t *m) { return m->topo.ncpus; }
const char *pmon_machine_warnings(const pmon_machine_t *m) { return m->warnings; }

int pmon_machine_cpu_socket(const pmon_machine_t *m, int cpu)
{
	if (cpu < 0 || cpu >= m->topo.ncpus)
		return PMON_ERANGE;
	return m->topo.cpu_socket[cpu];
}

int pmon_machine_socket_cpu(const pmon_machine_t *m, int socket)
{
	if (socket < 0 || socket >= m->topo.nsockets)
		return PMON_ERANGE;
	return m->topo.socket_first_cpu[socket];
}

int pmon_machine_pmu_present(const pmon_machine_t *m, int pmu, int socket)
{
	if (!pmon_catalog_pmu(pmu) || socket < 0 || socket >= m->topo.nsockets ||
	    socket >= PMON_MAX_SOCKETS)
		return 0;
	return m->loc[pmu][socket].present;
}

/* Physical cores: distinct (socket, core) pairs among the CPUs. */
static int machine_cores(const pmon_machine_t *m)
{
	int n = 0;
	for (int c = 0; c < m->topo.ncpus; c++) {
		int first = m->topo.cpu_socket[c] >= 0;
		for (int d = 0; first && d < c; d++)
			first = m->topo.cpu_socket[d] != m->topo.cpu_socket[c] ||
				m->topo.cpu_core[d] != m->topo.cpu_core[c];
		n += first;
	}
	return n;
}

int pmon_machine_counters(const pmon_machine_t *m)
{
	int npmus, n = 0;
	const struct pmon_pmu *pmus = pmon_catalog(&npmus);
	for (int p = 0; p < npmus; p++) {
		const struct pmon_box_type *t = pmus[p].type;
		int anywhere = 0;
		for (int s = 0; s < m->topo.nsockets && s < PMON_MAX_SOCKETS; s++) {
			if (!m->loc[p][s].present)
				continue;
			anywhere = 1;
			if (t->space != PMON_SPACE_CORE)
				n += t->ncounters + (t->has_fixed ? 1 : 0);
		}
		/* a core PMU's filter registers are its RSP registers: one
		 * offcore event each, per CPU or per core */
		if (anywhere && t->space == PMON_SPACE_CORE)
			n += t->nfregs * (t->rsp_per_core ? machine_cores(m) : m->topo.ncpus);
	}
	return n;
}

int pmon_machine_describe(const pmon_machine_t *m, char *buf, size_t len)
{
	int npmus;
	const struct pmon_pmu *pmus = pmon_catalog(&npmus);
	size_t n = 0;

#define PUT(...) do { if (n < len) n += (size_t)snprintf(buf + n, len - n, __VA_ARGS__); } while (0)
	PUT("backend: %s\n", m->backend);
	PUT("cpu: %s (family %u model %u stepping %u)\n", m->id.brand, m->id.family,
	    m->id.model, m->id.stepping);
	PUT("sockets: %d, cpus: %d, cores per socket: %d, threads per core: %d\n",
	    m->topo.nsockets, m->topo.ncpus, m->topo.cores_per_socket, m->topo.threads_per_core);
	for (int s = 0; s < m->topo.nsockets && s < PMON_MAX_SOCKETS; s++) {
		if (m->gen->socket_map)
			PUT("socket %d: uncore bus %02x (first cpu %d)\n", s,
			    m->bm.socket_bus[s] < 0 ? 0 : m->bm.socket_bus[s], m->topo.socket_first_cpu[s]);
		else
			PUT("socket %d: %s uncore, MSRs only (first cpu %d)\n", s, m->gen->title,
			    m->topo.socket_first_cpu[s]);
		for (int p = 0; p < npmus; p++) {
			const struct pmon_box_type *t = pmus[p].type;
			const struct pmon_box_loc *loc = &m->loc[p][s];
			if (!loc->present || t->space == PMON_SPACE_CORE)
				continue;
			uint32_t stride = t->msr_stride * (uint32_t)pmus[p].instance;
			if (t->space == PMON_SPACE_MSR)
				PUT("  %-18s msr ctl 0x%x-0x%x ctr 0x%x-0x%x%s\n", pmus[p].name,
				    t->msr_ctl0 + stride, t->msr_ctl0 + stride + t->ncounters - 1,
				    t->msr_ctr0 + stride, t->msr_ctr0 + stride + t->ncounters - 1,
				    t->msr_glb_ctl ? " (under global control)" :
				    t->has_box_ctl ? "" : " (no box control)");
			else
				PUT("  %-18s pci %04x:%02x:%02x.%x%s\n", pmus[p].name, loc->pci.domain,
				    loc->pci.bus, loc->pci.dev, loc->pci.func,
				    loc->has_extra ? " (+ match/mask function)" : "");
		}
	}
	for (int p = 0; p < npmus; p++)
		if (pmus[p].type->space == PMON_SPACE_CORE && m->loc[p][0].present)
			PUT("core PMU: %s (per CPU, %d counters)\n", pmus[p].name, pmus[p].type->ncounters);
	if (m->warnings[0])
		PUT("warnings:\n%s\n", m->warnings);
#undef PUT
	return n < len ? PMON_OK : PMON_ENOMEM;
}

int pmon_machine_box_where(const pmon_machine_t *m, int pmu, int socket, pmon_box_where_t *out)
{
	int npmus;
	const struct pmon_pmu *pmus = pmon_catalog(&npmus);

	memset(out, 0, sizeof(*out));
	if (pmu < 0 || pmu >= npmus || socket < 0 || socket >= m->topo.nsockets ||
	    socket >= PMON_MAX_SOCKETS || !m->loc[pmu][socket].present ||
	    pmus[pmu].type->space == PMON_SPACE_CORE)
		return PMON_ENODEV;
	const struct pmon_box_type *t = pmus[pmu].type;
	const struct pmon_box_loc *loc = &m->loc[pmu][socket];
	uint32_t stride = t->msr_stride * (uint32_t)pmus[pmu].instance;
	out->ncounters = t->ncounters;
	if (t->space == PMON_SPACE_MSR) {
		out->msr_ctl = t->msr_ctl0 + stride;
		out->msr_ctr = t->msr_ctr0 + stride;
		out->has_box_ctl = t->has_box_ctl;
	} else {
		out->pci = 1;
		out->domain = loc->pci.domain;
		out->bus = loc->pci.bus;
		out->dev = loc->pci.dev;
		out->func = loc->pci.func;
		out->has_extra = loc->has_extra;
	}
	return PMON_OK;
}

int pmon_machine_socket_bus(const pmon_machine_t *m, int socket)
{
	if (socket < 0 || socket >= m->topo.nsockets || socket >= PMON_MAX_SOCKETS)
		return -1;
	return m->bm.socket_bus[socket];
}

int pmon_machine_socket_node(const pmon_machine_t *m, int socket)
{
	if (socket < 0 || socket >= m->topo.nsockets || socket >= PMON_MAX_SOCKETS)
		return -1;
	return m->bm.socket_node[socket];
}

uint64_t pmon_machine_time_ns(const pmon_machine_t *m)
{
	return pmon_clock_ns(m->acc);
}

/* An Intel or perf name that boxes of several generations have
 * (UNC_LLC_MISS, uncore/qmc_normal_reads_any/: nhm_unc and wsm_unc): the one
 * name of this machine's generation, in buf; else name itself. */
static const char *own_generation(const pmon_machine_t *m, const char *name, char *buf,
				  size_t len)
{
	const char *bare = strncasecmp(name, "pmon:::", 7) ? name : name + 7;
	pmon_name_map_t *map = strstr(bare, "::") ? NULL : malloc(sizeof(*map));
	const char *use = name;
	int mine = 0;
	if (map && pmon_name_map(bare, map, NULL, 0) == PMON_OK && map->form != PMON_FORM_PMON &&
	    map->ninstances > 1) {
		for (int i = 0; i < map->ninstances; i++) {
			char pmu[64];
			snprintf(pmu, sizeof(pmu), "%.*s", (int)strcspn(map->pmon[i], ":"), map->pmon[i]);
			const struct pmon_pmu *p = pmon_catalog_pmu(pmon_catalog_find(pmu));
			if (p && p->gen == m->gen && !mine++)
				snprintf(buf, len, "%s", map->pmon[i]);
		}
		if (mine == 1)
			use = buf;
	}
	free(map);
	return use;
}

int pmon_machine_encode(const pmon_machine_t *m, const char *name, pmon_encoding_t *e,
			char *err, size_t errlen)
{
	char own[PMON_MAX_NAME];
	int rc = pmon_encode(own_generation(m, name, own, sizeof(own)), m->topo.nsockets,
			     m->topo.ncpus, e, err, errlen);
	if (rc)
		return rc;
	const struct pmon_pmu *p = pmon_catalog_pmu(e->pmu);
	const struct pmon_box_type *t = p->type;
	if (e->cpu >= 0) {
		int s = m->topo.cpu_socket[e->cpu];
		if (s < 0)
			return pmon_why(err, errlen, PMON_ERANGE,
					"cpu=%d is not present on this machine", e->cpu);
		if (t->space != PMON_SPACE_CORE) {
			/* an uncore event named by CPU counts on that CPU's socket */
			char *q = strstr(e->name, ":cpu=");
			e->socket = s;
			e->cpu = -1;
			if (q)
				snprintf(q, sizeof(e->name) - (size_t)(q - e->name), ":socket=%d", s);
		} else {
			e->socket = s;
		}
	}
	if (!pmon_machine_pmu_present(m, e->pmu, e->socket)) {
		if (t->space == PMON_SPACE_CORE)
			return pmon_why(err, errlen, PMON_ENODEV,
				   "%s is not this CPU's core PMU (%s, model %u)", p->name,
				   m->cpu_name, m->id.model);
		if (p->gen && m->gen && p->gen != m->gen)
			return pmon_why(err, errlen, PMON_ENODEV,
				   "%s belongs to the %s uncore; this machine is a %s (pmon info "
				   "lists its PMUs)", p->name, p->gen->title, m->gen->title);
		if (t->quirks & PMON_BOX_PER_CORE)
			return pmon_why(err, errlen, PMON_ENODEV,
				   "%s is not present on socket %d: this machine has %d %s box(es) per "
				   "socket, one per core (%s0-%d)", p->name, e->socket, per_core(m, t),
				   t->name, t->pmu_prefix, per_core(m, t) - 1);
		return pmon_why(err, errlen, PMON_ENODEV,
				"%s is not present on socket %d", p->name, e->socket);
	}
	for (int r = 0; r < t->nfregs; r++)
		if (t->fregs[r].extra_dev && (e->filt_used & (1u << t->fregs[r].word)) &&
		    !m->loc[e->pmu][e->socket].has_extra)
			return pmon_why(err, errlen, PMON_ENODEV,
				   "%s needs %s, but the box's match/mask PCI function is missing on "
				   "socket %d (hidden by the BIOS?)", e->name, t->fregs[r].name, e->socket);
	return pmon_machine_event_modeled(m, e, err, errlen);
}

int pmon_machine_event_modeled(const pmon_machine_t *m, const pmon_encoding_t *e, char *err,
			       size_t errlen)
{
	if (e->pmu < 0 || e->pmu >= pmon_pmu_count())
		return pmon_why(err, errlen, PMON_EINVAL, "%s: no such PMU (%d)", e->name, e->pmu);
	const struct pmon_box_type *t = pmon_catalog_pmu(e->pmu)->type;
	if (m->acc->ops->event_modeled) {
		char box[32];
		snprintf(box, sizeof(box), "%s%s", t->name, e->fixed ? "-fixed" : "");
		if (!m->acc->ops->event_modeled(m->acc, box, e->ctl, e->filt))
			return pmon_why(err, errlen, PMON_ENOTMODELED,
				   "%s is not modeled by the emulated machine (PMON_BACKEND=sim): "
				   "it would not count, so it is refused", e->name);
	}
	return PMON_OK;
}

int pmon_machine_encode_all(const pmon_machine_t *m, const char *name, pmon_encoding_t *out,
			    int max, char *err, size_t errlen)
{
	pmon_name_map_t *map = malloc(sizeof(*map));
	char first[512] = "";
	int n = 0, rc, absent = 0;
	if (!map)
		return pmon_why(err, errlen, PMON_ENOMEM, "out of memory");
	rc = pmon_name_map(name, map, err, errlen);
	if (!rc && (!out || max < map->ninstances))
		rc = pmon_why(err, errlen, PMON_EINVAL, "'%s' names %d boxes: room for %d encodings",
			      name, map->ninstances, max);
	for (int i = 0; !rc && i < map->ninstances; i++) {
		rc = pmon_machine_encode(m, map->pmon[i], &out[n], err, errlen);
		/* a name of every box counts on the boxes this socket has */
		if (rc == PMON_ENODEV && map->ninstances > 1) {
			if (!absent++)
				snprintf(first, sizeof(first), "%s", err ? err : "");
			rc = PMON_OK;
			continue;
		}
		n += rc == PMON_OK;
	}
	free(map);
	if (!rc && n == 0)
		rc = pmon_why(err, errlen, PMON_ENODEV, "%s", first);
	return rc ? rc : n;
}
