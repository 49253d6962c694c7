/* test_encode.c - the name parser and encoder on the iMC and UBox tables:
 * control values, canonical names, qualifiers, and the error for each kind of
 * bad input. */
#include <string.h>

#include "check.h"
#include "pmon/pmon.h"

static pmon_encoding_t e;
static char err[512];

static int enc(const char *name)
{
	memset(&e, 0, sizeof(e));
	return pmon_encode(name, 2, 32, &e, err, sizeof(err));
}

static void expect_ok(const char *name, uint64_t ctl, const char *canon)
{
	int rc = enc(name);
	CHECK(rc == PMON_OK, "%s: rc %d (%s)", name, rc, err);
	CHECK_EQ_U64(e.ctl, ctl, name);
	if (canon)
		CHECK(!strcmp(e.name, canon), "%s: canonical '%s', want '%s'", name, e.name, canon);
}

static void expect_err(const char *name, int code, const char *needle)
{
	int rc = enc(name);
	CHECK_EQ_INT(rc, code, name);
	CHECK(strstr(err, needle) != NULL, "%s: message '%s' lacks '%s'", name, err, needle);
}

int main(void)
{
	/* control values: ev_sel | umask << 8 | modifiers, enable bit excluded */
	expect_ok("snbep_unc_imc0::UNC_M_CAS_COUNT:RD", 0x0304,
		  "snbep_unc_imc0::UNC_M_CAS_COUNT:RD:socket=0");
	expect_ok("pmon:::snbep_unc_imc0::UNC_M_CAS_COUNT:RD:socket=0", 0x0304, NULL);
	expect_ok("snbep_unc_imc3::UNC_M_CAS_COUNT:WR:socket=1", 0x0c04,
		  "snbep_unc_imc3::UNC_M_CAS_COUNT:WR:socket=1");
	CHECK_EQ_INT(e.socket, 1, "socket of imc3 WR");
	expect_ok("SNBEP_UNC_IMC1::unc_m_cas_count:rd", 0x0304, NULL);   /* case-insensitive */
	expect_ok("snbep_unc_imc0::UNC_M_ACT_COUNT:e=1:t=1", 0x01040001,
		  "snbep_unc_imc0::UNC_M_ACT_COUNT:e=1:t=1:socket=0");
	expect_ok("snbep_unc_imc0::UNC_M_ACT_COUNT:i=1:t=0xff", 0xff800001, NULL);
	expect_ok("snbep_unc_ubo::UNC_U_EVENT_MSG:VLW_RCVD", 0x0142, NULL);
	expect_ok("snbep_unc_ubo::UNC_U_LOCK_CYCLES:t=31", 0x1f000044, NULL);

	/* the CAS_COUNT umasks do not combine (as in libpfm4); the default is ALL */
	expect_err("snbep_unc_imc0::UNC_M_CAS_COUNT:RD_REG:WR_WMM", PMON_EUMASK, "cannot be combined");
	expect_ok("snbep_unc_imc0::UNC_M_CAS_COUNT", 0x0f04, "snbep_unc_imc0::UNC_M_CAS_COUNT:ALL:socket=0");

	/* fixed counters: ctl 0, no counter mask, flagged fixed */
	expect_ok("snbep_unc_imc2::UNC_M_CLOCKTICKS", 0, "snbep_unc_imc2::UNC_M_CLOCKTICKS:socket=0");
	CHECK_EQ_INT(e.fixed, 1, "DCLK is fixed");
	CHECK_EQ_U64(e.cntmask, 0, "DCLK cntmask");
	expect_ok("snbep_unc_ubo::UNC_U_CLOCKTICKS", 0, NULL);
	CHECK_EQ_INT(e.fixed, 1, "UCLK is fixed");

	/* general events may use the four counters */
	expect_ok("snbep_unc_imc0::UNC_M_PRE_COUNT:PAGE_MISS", 0x0102, NULL);
	CHECK_EQ_U64(e.cntmask, 0xf, "iMC cntmask");

	/* cpu= names a CPU; without a machine the socket stays unresolved */
	expect_ok("snbep_unc_imc0::UNC_M_CAS_COUNT:RD:cpu=17", 0x0304,
		  "snbep_unc_imc0::UNC_M_CAS_COUNT:RD:cpu=17");
	CHECK_EQ_INT(e.cpu, 17, "cpu kept");

	/* bad input: each names the problem */
	expect_err("snbep_unc_imc0::UNC_M_NOPE", PMON_ENOEVNT, "unknown event 'UNC_M_NOPE'");
	/* an event left out on purpose is named with its reason, not as unknown */
	static const char filter_match_why[] =
		"UNC_U_FILTER_MATCH is not offered for PMU snbep_unc_ubo: it is in Intel's event list, "
		"not in the uncore guide's, and its ENABLE and U2C_ENABLE umasks need a UBox filter "
		"register (UBoxFilter[3:0]) that the guide's UBox does not have (a documented "
		"divergence: doc/divergences.md, \"Not in the E5-2600 guide\")";
	CHECK_EQ_INT(enc("snbep_unc_ubo::UNC_U_FILTER_MATCH"), PMON_ENOEVNT, "FILTER_MATCH");
	CHECK(!strcmp(err, filter_match_why), "FILTER_MATCH: '%s'", err);
	CHECK_EQ_INT(enc("snbep_unc_ubo::unc_u_filter_match:ENABLE"), PMON_ENOEVNT, "filter_match:ENABLE");
	CHECK(!strcmp(err, filter_match_why), "filter_match:ENABLE: '%s'", err);
	CHECK_EQ_INT(enc("snbep_unc_ubo::UNC_U_PHOLD_CYCLES"), PMON_ENOEVNT, "PHOLD_CYCLES");
	CHECK(!strcmp(err, "UNC_U_PHOLD_CYCLES is not offered for PMU snbep_unc_ubo: it is in Intel's "
		      "event list, not in the uncore guide's, and needs an extra event-select bit that "
		      "U_MSR_PMON_CTL does not have (a documented divergence: doc/divergences.md, "
		      "\"Not in the E5-2600 guide\")"), "PHOLD_CYCLES: '%s'", err);
	expect_err("snbep_unc_ubo::UNC_U_FILTER", PMON_ENOEVNT, "unknown event 'UNC_U_FILTER' for PMU snbep_unc_ubo");
	expect_err("snbep_unc_imc0::UNC_U_FILTER_MATCH", PMON_ENOEVNT,
		   "unknown event 'UNC_U_FILTER_MATCH' for PMU snbep_unc_imc0");
	expect_err("snbep_unc_imc7::UNC_M_CAS_COUNT", PMON_ENOEVNT, "instances 0-3");
	expect_err("snbep_unc_zz::UNC_M_CAS_COUNT", PMON_ENOEVNT, "unknown PMU 'snbep_unc_zz'");
	expect_err("CAS_COUNT", PMON_ENOEVNT, "names no PMU");
	/* Intel's name of every channel: one encoding per box (pmon_encode_all) */
	expect_err("UNC_M_CAS_COUNT", PMON_EINVAL, "names every box of its kind (4");
	expect_err("snbep_unc_imc0::UNC_M_CAS_COUNT:BOGUS", PMON_EUMASK, "umask 'BOGUS' is not valid");
	expect_err("snbep_unc_imc0::UNC_M_CAS_COUNT:RD:RD", PMON_EUMASK, "given twice");
	expect_err("snbep_unc_imc0::UNC_M_ACT_COUNT:RD", PMON_EUMASK, "takes no umask");
	expect_err("snbep_unc_imc0::UNC_M_CAS_COUNT:RD:socket=9", PMON_ERANGE,
		   "socket=9 out of range: this machine has 2 sockets (0-1)");
	expect_err("snbep_unc_imc0::UNC_M_CAS_COUNT:RD:cpu=32", PMON_ERANGE,
		   "cpu=32 out of range: this machine has 32 CPUs (0-31)");
	/* an OPC_ umask writes the CBo filter's opcode: only with an OPCODE
	 * sub-event, never with one that does not read it */
	expect_err("snbep_unc_cbo0::UNC_C_TOR_INSERTS:EVICTION:OPC_RFO", PMON_EUMASK,
		   "umask 'OPC_RFO' sets filter field opc, which UNC_C_TOR_INSERTS");
	expect_err("snbep_unc_cbo0::UNC_C_TOR_INSERTS:WB:OPC_DRD", PMON_EUMASK, "'OPC_DRD' sets filter field");
	expect_err("snbep_unc_cbo0::UNC_C_TOR_OCCUPANCY:ALL:OPC_RFO", PMON_EUMASK,
		   "'OPC_RFO' sets filter field");
	expect_err("snbep_unc_cbo0::UNC_C_TOR_INSERTS:MISS_ALL:OPC_RFO", PMON_EUMASK,
		   "'OPC_RFO' sets filter field");
	CHECK_EQ_INT(enc("snbep_unc_cbo0::UNC_C_TOR_INSERTS:OPCODE:OPC_RFO"), PMON_OK, "OPCODE:OPC_RFO");
	CHECK_EQ_U64(e.filt[0], 0x180ull << 23, "OPCODE:OPC_RFO filter");
	CHECK_EQ_INT(enc("snbep_unc_cbo0::UNC_C_TOR_INSERTS:NID_MISS_OPCODE:OPC_DRD:nf=1"), PMON_OK,
		     "NID_MISS_OPCODE:OPC_DRD");
	CHECK_EQ_INT(enc("snbep_unc_cbo0::UNC_C_LLC_LOOKUP:DATA_READ:STATE_I"), PMON_OK, "a state umask");
	/* HA addr=: the home agent compares PA[45:12] (uncore guide L1617), so
	 * only a 4 KiB page address is accepted, written in place into
	 * ADDRMATCH1:ADDRMATCH0 (filt[0]: PA[31:6] in bits 31:6, PA[45:32] in
	 * 45:32); anything else is refused, naming the value and what is matched */
	expect_ok("snbep_unc_ha::UNC_H_ADDR_OPC_MATCH:addr=0x12345000:opc=3", 0x320,
		  "snbep_unc_ha::UNC_H_ADDR_OPC_MATCH:FILT:addr=0x12345000:opc=3:socket=0");
	CHECK_EQ_U64(e.filt[0], 0x12345000, "addr=0x12345000: ADDRMATCH1:ADDRMATCH0");
	CHECK_EQ_U64(e.filt[1], 3, "opc=3: OPCODEMATCH");
	expect_ok("snbep_unc_ha::UNC_H_ADDR_OPC_MATCH:addr=0x3ffffffff000:opc=0", 0x320, NULL);
	CHECK_EQ_U64(e.filt[0], 0x3ffffffff000ull, "highest page: ADDRMATCH1 0x3fff, ADDRMATCH0 0xfffff000");
	expect_ok("snbep_unc_ha::UNC_H_ADDR_OPC_MATCH:addr=4096:opc=1", 0x320,
		  "snbep_unc_ha::UNC_H_ADDR_OPC_MATCH:FILT:addr=0x1000:opc=1:socket=0");
	CHECK_EQ_U64(e.filt[0], 0x1000, "addr=4096");
	expect_ok("snbep_unc_ha::UNC_H_ADDR_OPC_MATCH:addr=0:opc=1", 0x320, NULL);
	CHECK_EQ_U64(e.filt[0], 0, "addr=0");
	CHECK_EQ_INT(enc("snbep_unc_ha::UNC_H_ADDR_OPC_MATCH:addr=0x12345678:opc=3"), PMON_ERANGE,
		     "addr below the page");
	CHECK(!strcmp(err, "addr=0x12345678 sets address bits below bit 12, which snbep_unc_ha does "
		      "not compare: it matches 4 KiB pages (physical address bits 45:12); the page "
		      "holding this address is addr=0x12345000"), "addr=0x12345678: '%s'", err);
	/* a line address (bits 11:6, which ADDRMATCH0 holds but the HA ignores) */
	CHECK_EQ_INT(enc("snbep_unc_ha::UNC_H_ADDR_OPC_MATCH:addr=0x12345fc0:opc=3"), PMON_ERANGE,
		     "line address");
	CHECK(!strcmp(err, "addr=0x12345fc0 sets address bits below bit 12, which snbep_unc_ha does "
		      "not compare: it matches 4 KiB pages (physical address bits 45:12); the page "
		      "holding this address is addr=0x12345000"), "addr=0x12345fc0: '%s'", err);
	CHECK_EQ_INT(enc("snbep_unc_ha::UNC_H_ADDR_OPC_MATCH:addr=0x3fffffffffff:opc=3"), PMON_ERANGE,
		     "PA[45:0] all set");
	CHECK(strstr(err, "addr=0x3fffffffffff sets address bits below bit 12") &&
	      strstr(err, "is addr=0x3ffffffff000"), "addr=0x3fffffffffff: '%s'", err);
	CHECK_EQ_INT(enc("snbep_unc_ha::UNC_H_ADDR_OPC_MATCH:addr=0x400000000000:opc=3"), PMON_ERANGE,
		     "PA bit 46");
	CHECK(!strcmp(err, "addr=0x400000000000 is above physical address bit 45, the highest "
		      "snbep_unc_ha compares (largest addr=0x3ffffffff000)"),
	      "addr=0x400000000000: '%s'", err);
	CHECK_EQ_INT(enc("snbep_unc_ha::UNC_H_ADDR_OPC_MATCH:addr=0x8000000000001000:opc=3"),
		     PMON_ERANGE, "PA bit 63");
	CHECK(strstr(err, "is above physical address bit 45") != NULL, "addr bit 63: '%s'", err);

	/* no machine (0: unchecked): pmon's own bounds, no machine named */
	CHECK_EQ_INT(pmon_encode("snbep_unc_imc0::UNC_M_CAS_COUNT:RD:socket=9", 0, 0, &e, err,
				 sizeof(err)), PMON_ERANGE, "socket=9, no machine");
	CHECK(!strcmp(err, "socket=9 out of range: pmon numbers sockets 0-7"), "no machine: '%s'", err);
	CHECK_EQ_INT(pmon_encode("snbep_unc_imc0::UNC_M_CAS_COUNT:RD:cpu=4096", 0, 0, &e, err,
				 sizeof(err)), PMON_ERANGE, "cpu=4096, no machine");
	CHECK(!strcmp(err, "cpu=4096 out of range: pmon numbers CPUs 0-4095"), "no machine: '%s'", err);
	CHECK_EQ_INT(pmon_encode("snbep_unc_imc0::UNC_M_CAS_COUNT:RD:socket=7", 0, 0, &e, err,
				 sizeof(err)), PMON_OK, "socket=7, no machine");
	expect_err("snbep_unc_imc0::UNC_M_CAS_COUNT:RD:socket=x", PMON_EQUAL, "malformed value 'x'");
	expect_err("snbep_unc_imc0::UNC_M_CAS_COUNT:RD:socket=", PMON_EQUAL, "has no value");
	expect_err("snbep_unc_imc0::UNC_M_CAS_COUNT:RD:socket=0:socket=1", PMON_EQUAL, "more than once");
	expect_err("snbep_unc_imc0::UNC_M_CAS_COUNT::RD", PMON_EQUAL, "empty attribute");
	expect_err("snbep_unc_imc0::UNC_M_ACT_COUNT:t=256", PMON_ERANGE, "t=256 out of range");
	expect_err("snbep_unc_ubo::UNC_U_LOCK_CYCLES:t=32", PMON_ERANGE, "t=32 out of range");
	expect_err("snbep_unc_imc0::UNC_M_ACT_COUNT:t", PMON_EQUAL, "needs a value");
	expect_err("snbep_unc_imc0::UNC_M_ACT_COUNT:q=1", PMON_EQUAL, "unknown modifier 'q'");
	expect_err("snbep_unc_imc0::UNC_M_CLOCKTICKS:e=1", PMON_EQUAL, "fixed counter");
	expect_err("snbep_unc_ubo::UNC_U_EVENT_MSG", PMON_EUMASK, "needs a umask");

	/* the catalogue agrees with the tables */
	int p = pmon_pmu_find("snbep_unc_imc0");
	CHECK(p >= 0, "imc0 in catalogue");
	pmon_pmu_info_t pi;
	CHECK_EQ_INT(pmon_pmu_get(p, &pi), PMON_OK, "pmu info");
	CHECK_EQ_INT(pi.ncounters, 4, "imc counters");
	CHECK_EQ_INT(pi.width, 48, "imc width");
	CHECK_EQ_INT(pi.has_fixed, 1, "imc fixed");
	CHECK_EQ_INT(pmon_pmu_find("snbep_unc_imc4"), PMON_ENOEVNT, "no imc4");
	return check_done("test_encode");
}
