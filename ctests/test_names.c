/* test_names.c - the names of perf and Intel's lists (names.c): each form
 * encodes to the very registers of pmon's own name, perf's format fields
 * land where the kernel's sysfs layout puts them, every event of the
 * tables survives the trip pmon name -> kernel bits -> perf name -> pmon
 * encoding, a name of every box gives one encoding per box, units, and
 * refusals that name the problem. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmon/pmon.h"
#include "catalog.h"
#include "generation.h"
#include "names.h"
#include "snbep/snbep.h"
#include "nhm/nhm.h"

#include "check.h"

/* name encodes to exactly what pmon's own name does */
static void same(const char *name, const char *pmon)
{
	pmon_encoding_t a, b;
	char ea[512], eb[512];
	int ra = pmon_encode(name, 0, 0, &a, ea, sizeof(ea));
	int rb = pmon_encode(pmon, 0, 0, &b, eb, sizeof(eb));
	CHECK(ra == PMON_OK, "%s: %s", name, ea);
	CHECK(rb == PMON_OK, "%s: %s", pmon, eb);
	if (ra || rb)
		return;
	CHECK(!strcmp(a.name, b.name), "%s: canonical %s, want %s", name, a.name, b.name);
	CHECK_EQ_U64(a.ctl, b.ctl, name);
	CHECK_EQ_INT(a.pmu, b.pmu, name);
	CHECK_EQ_INT(a.event, b.event, name);
	CHECK_EQ_INT(a.socket, b.socket, name);
	CHECK_EQ_INT(a.fixed, b.fixed, name);
	CHECK_EQ_U64(a.filt_used, b.filt_used, name);
	for (int w = 0; w < PMON_FILTER_WORDS; w++)
		CHECK_EQ_U64(a.filt[w], b.filt[w], name);
}

static void refused(const char *name, int want, const char *needle)
{
	pmon_encoding_t e;
	char err[512] = "";
	int rc = pmon_encode(name, 0, 0, &e, err, sizeof(err));
	CHECK_EQ_INT(rc, want, name);
	CHECK(strstr(err, needle) != NULL, "%s: '%s' not in '%s'", name, needle, err);
}

static void perf_names(void)
{
	same("uncore_imc_0/cas_count_read/", "snbep_unc_imc0::UNC_M_CAS_COUNT:RD");
	same("uncore_imc_2/cas_count_write/:socket=1", "snbep_unc_imc2::UNC_M_CAS_COUNT:WR:socket=1");
	same("uncore_imc_3/clockticks/", "snbep_unc_imc3::UNC_M_CLOCKTICKS");
	same("uncore_imc_1/event=0x04,umask=0x03/", "snbep_unc_imc1::UNC_M_CAS_COUNT:RD");
	same("uncore_imc_1/event=0x04,umask=0x0f/", "snbep_unc_imc1::UNC_M_CAS_COUNT:ALL");
	same("uncore_imc_0/event=0x04,umask=0x03,thresh8=2,edge/",
	     "snbep_unc_imc0::UNC_M_CAS_COUNT:RD:t=2:e=1");
	same("uncore_cbox_0/event=0x34,umask=0x03,filter_state=0x1f/",
	     "snbep_unc_cbo0::UNC_C_LLC_LOOKUP:DATA_READ:STATE_MESIF");
	same("uncore_cbox_3/event=0x35,umask=0x01,filter_opc=0x180/",
	     "snbep_unc_cbo3::UNC_C_TOR_INSERTS:OPCODE:OPC_RFO");
	same("uncore_cbox_1/event=0x34,umask=0x03,filter_state=0x1f,tid_en=1,filter_tid=0x3/",
	     "snbep_unc_cbo1::UNC_C_LLC_LOOKUP:DATA_READ:STATE_MESIF:tf=1:cf=1");
	same("uncore_qpi_1/drs_data/", "snbep_unc_qpi1::UNC_Q_RXL_FLITS_G1:DRS_DATA");
	same("uncore_qpi_0/ncb_data/:cpu=0", "snbep_unc_qpi0::UNC_Q_RXL_FLITS_G2:NCB_DATA:cpu=0");
	same("uncore_qpi_0/clockticks/", "snbep_unc_qpi0::UNC_Q_CLOCKTICKS");
	same("uncore_pcu/event=0x0b,filter_band0=32/", "snbep_unc_pcu::UNC_P_FREQ_BAND0_CYCLES:ff=32");
	same("uncore_ubox/event=0xff/", "snbep_unc_ubo::UNC_U_CLOCKTICKS");
	same("pmon:::uncore_ha/event=0x00/", "snbep_unc_ha::UNC_H_CLOCKTICKS");

	/* the kernel's layout: the bits land where sysfs's format says */
	pmon_encoding_t e;
	char err[512];
	CHECK_EQ_INT(pmon_encode("uncore_cbox_2/event=0x34,umask=0x03,filter_state=0x11/", 0, 0, &e,
				 err, sizeof(err)), PMON_OK, err);
	CHECK_EQ_U64(e.ctl, 0x34 | 0x03 << 8, "LLC_LOOKUP control: event 7:0, umask 15:8");
	CHECK_EQ_U64(e.filt[0], 0x11ull << 18, "filter_state is config1 22:18");
	CHECK_EQ_INT(pmon_encode("uncore_qpi_0/event_ext=0x102,umask=0x08/", 0, 0, &e, err,
				 sizeof(err)), PMON_OK, err);
	CHECK_EQ_U64(e.ctl, 0x02 | 0x08 << 8 | 1u << 21, "event_ext 0x102: ev_sel 2 and bit 21");

	/* perf's scale and unit; the filter default pmon fills is noted */
	pmon_name_map_t map;
	CHECK_EQ_INT(pmon_name_map("uncore_imc_0/cas_count_read/", &map, err, sizeof(err)), PMON_OK, err);
	CHECK_EQ_INT(map.form, PMON_FORM_PERF, "perf form");
	CHECK(map.perf_scale == 64.0 / (1 << 20), "scale 64 B in MiB: %g", map.perf_scale);
	CHECK(!strcmp(map.perf_unit, "MiB"), "unit MiB: %s", map.perf_unit);
	CHECK_EQ_INT(pmon_name_map("uncore_cbox_0/event=0x34,umask=0x03/", &map, err, sizeof(err)),
		     PMON_OK, err);
	CHECK(strstr(map.note, "state") && strstr(map.note, "0x1f"), "note: %s", map.note);
	CHECK_EQ_INT(pmon_name_map("uncore_imc_0/event=0x04,umask=0x03/", &map, err, sizeof(err)),
		     PMON_OK, err);
	CHECK(map.perf_scale == 0 && !map.note[0], "raw fields: no scale, no note");

	refused("uncore_foo_0/event=1/", PMON_ENOEVNT, "unknown perf PMU 'uncore_foo_0'");
	refused("uncore_imc_4/cas_count_read/", PMON_ENOEVNT, "uncore_imc_4");
	refused("uncore_ha_0/event=0/", PMON_ENOEVNT, "one instance");
	refused("uncore_imc_0/cas_count_reed/", PMON_EQUAL, "cas_count_reed");
	refused("uncore_imc_0/umask=3/", PMON_EQUAL, "no event=");
	refused("uncore_imc_0/cas_count_read/u", PMON_EQUAL, ":socket=N");
	refused("uncore_imc_0/event=0x04,umask=0x40/", PMON_EUMASK, "0x40");
	refused("uncore_imc_0/event=0x04,event=0x04/", PMON_EQUAL, "twice");
	refused("uncore_imc_0/event=0x77/", PMON_ENOEVNT, "no event event=0x77");
	refused("uncore_imc_0/thresh8=256,event=4/", PMON_ERANGE, "8 bits");
	refused("uncore_qpi_0/event_ext=0x00,umask=0x02,match0=1/", PMON_EQUAL, "match/mask");
	refused("uncore_qpi_0/txl_flits_active/", PMON_EUMASK, "cannot be combined");
	refused("uncore_pcu/event=0x0b,filter_band1=32/", PMON_EQUAL, "filter bits");
	refused("uncore_imc_0/cas_count_read", PMON_ENOEVNT, "PMU/TERMS/");
}

static void intel_names(void)
{
	pmon_encoding_t e[PMON_MAX_INSTANCES], own;
	char err[512];
	int n = pmon_encode_all("UNC_C_LLC_LOOKUP.DATA_READ:socket=1", 0, 0, e, PMON_MAX_INSTANCES, err,
				sizeof(err));
	CHECK_EQ_INT(n, 8, err);
	CHECK_EQ_INT(pmon_encode("snbep_unc_cbo7::UNC_C_LLC_LOOKUP:DATA_READ:socket=1", 0, 0, &own, err,
				 sizeof(err)), PMON_OK, err);
	CHECK(n == 8 && !strcmp(e[7].name, own.name) && e[7].ctl == own.ctl &&
	      e[7].filt[0] == own.filt[0] && e[7].socket == 1, "Intel's name, slice 7: %s", e[7].name);
	n = pmon_encode_all("UNC_M_CAS_COUNT.RD", 0, 0, e, PMON_MAX_INSTANCES, err, sizeof(err));
	CHECK_EQ_INT(n, 4, "UNC_M_CAS_COUNT.RD: the four channels");
	for (int i = 0; i < n && i < 4; i++) {
		char want[64];
		snprintf(want, sizeof(want), "snbep_unc_imc%d::UNC_M_CAS_COUNT:RD:socket=0", i);
		CHECK(!strcmp(e[i].name, want), "instance %d: %s", i, e[i].name);
		CHECK_EQ_U64(e[i].ctl, 0x0304, want);
	}
	n = pmon_encode_all("UNC_C_TOR_INSERTS.OPCODE:OPC_RFO", 0, 0, e, PMON_MAX_INSTANCES, err,
			    sizeof(err));
	CHECK_EQ_INT(n, 8, "a CBo name: the eight slices");
	CHECK_EQ_U64(n > 0 ? e[n - 1].filt[0] : 0, 0x180ull << 23, "OPC_RFO in the filter");
	refused("UNC_M_CAS_COUNT.RD", PMON_EINVAL, "pmon_encode_all");
	refused("UNC_M_CAS_COUNT.NOPE", PMON_EINVAL, "");
	CHECK(pmon_encode_all("UNC_M_CAS_COUNT.NOPE", 0, 0, e, 8, err, sizeof(err)) == PMON_EUMASK &&
	      strstr(err, "NOPE"), "a wrong Intel umask is named: %s", err);
	CHECK(pmon_encode_all("UNC_X_NOTHING", 0, 0, e, 8, err, sizeof(err)) == PMON_ENOEVNT &&
	      strstr(err, "UNC_X_NOTHING"), "an unknown Intel event is named: %s", err);
	CHECK(pmon_encode_all("UNC_M_CAS_COUNT.RD", 0, 0, e, 3, err, sizeof(err)) == PMON_EINVAL &&
	      strstr(err, "4 boxes"), "no room is said: %s", err);
	n = pmon_encode_all("uncore_cbox/event=0x34,umask=0x03,filter_state=0x1f/", 0, 0, e, 8, err,
			    sizeof(err));
	CHECK_EQ_INT(n, 8, "perf's uncore_cbox//: every slice");
	n = pmon_encode_all("snbep_unc_imc1::UNC_M_CAS_COUNT:RD", 0, 0, e, 8, err, sizeof(err));
	CHECK_EQ_INT(n, 1, "pmon's name: one box");
}

/* The kernel's fields for the bits of encoding enc of box type t, its
 * perf PMU pp (whose threshold field, at bit 24, is thresh8, thresh5 or the
 * Nehalem uncore's cmask). */
static void perf_terms(const struct pmon_box_type *t, const struct pmon_perf_pmu *pp,
		       const struct pmon_event *ev, const pmon_encoding_t *enc, char *buf, size_t len)
{
	uint64_t c = enc->ctl;
	size_t n;
	const char *thr = t->thresh_bits == 5 ? "thresh5" : "thresh8";
	for (const struct pmon_perf_format *f = pp->formats; f->name; f++)
		if (f->dest == PMON_PERF_CTL && f->shift == 24)
			thr = f->name;
	if (enc->fixed) {
		snprintf(buf, len, "event=0xff");
		return;
	}
	if (!strcmp(t->name, "qpi") || !strcmp(t->name, "pcu"))
		n = (size_t)snprintf(buf, len, "event_ext=0x%llx", (unsigned long long)((c & 0xff) |
				     ((c >> 21 & 1) << 8)));
	else
		n = (size_t)snprintf(buf, len, "event=0x%llx", (unsigned long long)(c & 0xff));
	if (ev->flags & PMON_EV_OCC)
		n += (size_t)snprintf(buf + n, len - n, ",occ_sel=%llu,occ_invert=%llu,occ_edge=%llu",
				      (unsigned long long)(c >> 14 & 3), (unsigned long long)(c >> 30 & 1),
				      (unsigned long long)(c >> 31 & 1));
	else if (strcmp(t->name, "pcu"))
		n += (size_t)snprintf(buf + n, len - n, ",umask=0x%llx", (unsigned long long)(c >> 8 & 0xff));
	n += (size_t)snprintf(buf + n, len - n, ",edge=%llu,inv=%llu,%s=%llu",
			      (unsigned long long)(c >> 18 & 1), (unsigned long long)(c >> 23 & 1), thr,
			      (unsigned long long)(c >> 24 & (t->thresh_bits == 5 ? 0x1f : 0xff)));
	uint64_t f = enc->filt[0];
	if (!strcmp(t->name, "cbo"))
		snprintf(buf + n, len - n, ",tid_en=%llu,filter_tid=%llu,filter_nid=0x%llx,"
			 "filter_state=0x%llx,filter_opc=0x%llx", (unsigned long long)(c >> 19 & 1),
			 (unsigned long long)(f & 0x1f), (unsigned long long)(f >> 10 & 0xff),
			 (unsigned long long)(f >> 18 & 0x1f), (unsigned long long)(f >> 23 & 0x1ff));
	else if (!strcmp(t->name, "pcu"))
		snprintf(buf + n, len - n, ",filter_band0=%llu,filter_band1=%llu,filter_band2=%llu,"
			 "filter_band3=%llu", (unsigned long long)(f & 0xff),
			 (unsigned long long)(f >> 8 & 0xff), (unsigned long long)(f >> 16 & 0xff),
			 (unsigned long long)(f >> 24 & 0xff));
}

/* Every event (and every umask) of every uncore box: pmon's example name,
 * its bits written the kernel's way, mapped back: the same registers.  HA
 * and QPI events that program a matcher are left out: the kernel has no
 * field for the HA's and pmon takes QPI's only under its own names. */
static void round_trip(void)
{
	int np, tried = 0, same_bits = 0;
	const struct pmon_pmu *p = pmon_catalog(&np);
	for (int i = 0; i < np; i++) {
		const struct pmon_box_type *t = p[i].type;
		/* (a generation with no perf PMU names has nothing to map back) */
		if (p[i].instance || t->space == PMON_SPACE_CORE || !p[i].gen->perf_pmus)
			continue;
		for (int ev = 0; ev < p[i].nevents; ev++) {
			const struct pmon_event *e = &t->events[ev];
			for (int um = -1; um < e->numasks; um++) {
				char name[PMON_MAX_NAME], perf[768], terms[512], err[512];
				pmon_encoding_t a, b;
				if (pmon_event_example(i, ev, um, name, sizeof(name)) != PMON_OK ||
				    pmon_encode(name, 0, 0, &a, err, sizeof(err)) != PMON_OK)
					continue;
				if ((a.filt_used & ~1u) || (a.filt_used && strcmp(t->name, "cbo") &&
							    strcmp(t->name, "pcu")))
					continue;
				const struct pmon_perf_pmu *pp = p[i].gen->perf_pmus;
				while (pp->perf_name && strcmp(pp->box, t->name))
					pp++;
				perf_terms(t, pp, e, &a, terms, sizeof(terms));
				snprintf(perf, sizeof(perf), "%s%s/%s/", pp->perf_name,
					 t->max_boxes > 1 ? "_0" : "", terms);
				tried++;
				/* a perf PMU of several generations (Nehalem's and
				 * Westmere's "uncore") maps to each: this box's */
				pmon_name_map_t map;
				int rc = pmon_name_map(perf, &map, err, sizeof(err)), k = 0;
				while (!rc && k < map.ninstances &&
				       strncmp(map.pmon[k], p[i].name, strlen(p[i].name)))
					k++;
				if (!rc && k == map.ninstances)
					rc = PMON_ENOEVNT, snprintf(err, sizeof(err), "not mapped to %s", p[i].name);
				if (!rc)
					rc = pmon_encode(map.pmon[k], 0, 0, &b, err, sizeof(err));
				CHECK(rc == PMON_OK, "%s as %s: %s", name, perf, err);
				if (rc)
					continue;
				int ok = a.ctl == b.ctl && a.filt[0] == b.filt[0] && a.event == b.event &&
					 a.pmu == b.pmu;
				CHECK(ok, "%s as %s: ctl 0x%llx filt 0x%llx, want 0x%llx 0x%llx", name,
				      perf, (unsigned long long)b.ctl, (unsigned long long)b.filt[0],
				      (unsigned long long)a.ctl, (unsigned long long)a.filt[0]);
				same_bits += ok;
			}
		}
	}
	CHECK(tried > 600, "round trips tried: %d", tried);
	printf("round trip pmon -> perf -> pmon: %d of %d names give the same registers\n",
	       same_bits, tried);
}

static void unit_is(const char *name, const char *unit, double bytes)
{
	pmon_encoding_t e;
	pmon_unit_t u;
	char err[512];
	CHECK_EQ_INT(pmon_encode(name, 0, 0, &e, err, sizeof(err)), PMON_OK, err);
	CHECK_EQ_INT(pmon_encoding_unit(&e, &u), PMON_OK, name);
	CHECK(!strcmp(u.unit, unit) && u.bytes == bytes, "%s: unit '%s' %g, want '%s' %g", name,
	      u.unit, u.bytes, unit, bytes);
}

static void units(void)
{
	unit_is("snbep_unc_imc0::UNC_M_CAS_COUNT:RD", "64-byte lines", 64);
	unit_is("uncore_imc_1/cas_count_write/", "64-byte lines", 64);
	unit_is("snbep_unc_imc0::UNC_M_CAS_COUNT:RD:t=1", "", 0);
	unit_is("snbep_unc_imc0::UNC_M_CAS_COUNT:RD:e=1", "", 0);
	unit_is("snbep_unc_imc0::UNC_M_CLOCKTICKS", "DRAM clock cycles", 0);
	unit_is("snbep_unc_imc0::UNC_M_RPQ_CYCLES_NE", "DRAM clock cycles", 0);
	unit_is("snbep_unc_imc0::UNC_M_ACT_COUNT", "", 0);
	unit_is("uncore_qpi_0/drs_data/", "8-byte data flits", 8);
	unit_is("snbep_unc_qpi0::UNC_Q_TXL_FLITS_G0:DATA", "8-byte data flits", 8);
	unit_is("snbep_unc_qpi0::UNC_Q_TXL_FLITS_G0:IDLE", "flits", 0);
	unit_is("snbep_unc_qpi0::UNC_Q_CLOCKTICKS", "QPI clock cycles", 0);
	unit_is("snbep_unc_pcu::UNC_P_CLOCKTICKS", "PCU clock cycles (800 MHz)", 0);
	unit_is("snbep_unc_ubo::UNC_U_CLOCKTICKS", "uncore clock cycles", 0);
	unit_is("snbep_unc_cbo0::UNC_C_CLOCKTICKS", "uncore clock cycles", 0);
	unit_is("nhm_unc::UNC_QMC_NORMAL_READS:CH1", "64-byte lines", 64);
	unit_is("wsm_unc::UNC_QMC_WRITES:FULL_ANY", "64-byte lines", 64);
	unit_is("nhm_unc::UNC_QMC_WRITES:PARTIAL_CH0", "", 0);
	unit_is("nhm_unc::UNC_QHL_REQUESTS:REMOTE_READS", "64-byte lines", 64);
	unit_is("wsm_unc::UNC_CLK_UNHALTED", "uncore clock cycles", 0);
	pmon_unit_t u;
	int imc = pmon_pmu_find("snbep_unc_imc0");
	int qpi = pmon_pmu_find("snbep_unc_qpi0");
	CHECK(imc >= 0 && qpi >= 0, "PMUs found");
	for (int ev = 0; qpi >= 0 && ev < pmon_event_count(qpi); ev++) {
		pmon_event_info_t ei;
		pmon_event_get(qpi, ev, &ei);
		if (strcmp(ei.name, "UNC_Q_TXL_FLITS_G0"))
			continue;
		CHECK_EQ_INT(pmon_event_unit(qpi, ev, -1, &u), PMON_OK, "event unit");
		CHECK(!strcmp(u.unit, "flits") && u.bytes == 0, "G0 whatever umask: flits (%s)", u.unit);
		CHECK_EQ_INT(pmon_event_unit(qpi, ev, 99, &u), PMON_EINVAL, "bad umask index");
	}
	CHECK_EQ_INT(pmon_event_unit(imc, 9999, -1, &u), PMON_EINVAL, "bad event index");
}

/* Every alias of the table encodes, or is refused with the reason. */
static void aliases(void)
{
	int n = 0;
	for (const struct pmon_perf_pmu *pp = pmon_snbep_perf_pmus; pp->perf_name; pp++)
		for (const struct pmon_perf_alias *a = pp->aliases; a && a->name; a++) {
			char name[128], err[512];
			pmon_encoding_t e[PMON_MAX_INSTANCES];
			snprintf(name, sizeof(name), "%s/%s/", pp->perf_name, a->name);
			int rc = pmon_encode_all(name, 0, 0, e, PMON_MAX_INSTANCES, err, sizeof(err));
			if (!strcmp(a->name, "txl_flits_active"))
				CHECK(rc == PMON_EUMASK, "%s: refused (%s)", name, err);
			else
				CHECK(rc >= 1, "%s: %s", name, err);
			n++;
		}
	CHECK_EQ_INT(n, 7, "aliases: 3 iMC, 4 QPI");
	/* The kernel's Nehalem / Westmere uncore, one PMU "uncore" for both:
	 * each alias is an event of each generation's PMU, the same bits. */
	n = 0;
	for (const struct pmon_perf_alias *a = pmon_nhm_perf_pmus[0].aliases; a && a->name; a++) {
		char name[128], err[512];
		pmon_name_map_t map;
		pmon_encoding_t e0, e1;
		snprintf(name, sizeof(name), "uncore/%s/", a->name);
		int rc = pmon_name_map(name, &map, err, sizeof(err));
		CHECK(rc == PMON_OK && map.ninstances == 2 && !strncmp(map.pmon[0], "nhm_unc::", 9) &&
		      !strncmp(map.pmon[1], "wsm_unc::", 9), "%s: both generations (%s)", name, err);
		if (rc || map.ninstances != 2)
			continue;
		CHECK(pmon_encode(map.pmon[0], 0, 0, &e0, err, sizeof(err)) == PMON_OK &&
		      pmon_encode(map.pmon[1], 0, 0, &e1, err, sizeof(err)) == PMON_OK && e0.ctl == e1.ctl &&
		      e0.fixed == e1.fixed, "%s: %s and %s, the same bits", name, map.pmon[0], map.pmon[1]);
		n++;
	}
	CHECK_EQ_INT(n, 9, "Nehalem uncore aliases: clockticks, 2 QMC, 6 QHL");
	/* the any-channel umask, not the kernel's 0x0f */
	pmon_name_map_t map;
	pmon_encoding_t e;
	char err[512];
	CHECK(pmon_name_map("uncore/qmc_writes_full_any/", &map, err, sizeof(err)) == PMON_OK &&
	      pmon_encode(map.pmon[0], 0, 0, &e, err, sizeof(err)) == PMON_OK && (e.ctl & 0xffff) == 0x072f,
	      "qmc_writes_full_any: ctl 0x%llx, want umask 0x07 event 0x2f", (unsigned long long)e.ctl);
}

int main(void)
{
	perf_names();
	intel_names();
	round_trip();
	units();
	aliases();
	return check_done("test_names");
}
