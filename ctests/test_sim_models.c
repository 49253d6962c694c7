/*
 * test_sim_models.c - pmon_sim_models(): the listed true and false cases,
 * and a sweep proving the predicate agrees with what the registers count:
 * every event code (with several umasks, ext on and off) is programmed into
 * a real counter of each box type, the machine is driven with time and
 * traffic, and a counter must move exactly when the event is modeled
 * (except the modeled sub-events that never occur: CAS WR_RMM, PRE_COUNT
 * PAGE_CLOSE).
 */
#include <string.h>

#include "sim_fixture.h"

#define M(box, ctl, f, want) \
	CHECK_EQ_INT(pmon_sim_models(box, ctl, f), want, box " " #ctl " " #f)

static void cases(void)
{
	/* clocks */
	M("cbo", 0x000000, 0, 1);
	M("cbo", 0x400000, 0, 1);           /* en ignored */
	M("ha", 0x000000, 0, 1);
	M("r2pcie", 0x000001, 0, 1);
	M("r3qpi", 0x000001, 0, 1);
	M("r3qpi", 0x000811, 0, 1);         /* RxR_INSERTS.DRS */
	M("r3qpi", 0x000F11, 0, 1);         /* HOM|SNP|NDR|DRS */
	M("r3qpi", 0x001011, 0, 0);         /* RxR_INSERTS.NCB: never produced */
	M("r3qpi", 0x000011, 0, 0);         /* no class */
	M("r3qpi", 0x000813, 0, 0);         /* RxR_OCCUPANCY.DRS */
	M("r3qpi", 0x000424, 0, 0);         /* TxR_INSERTS.BL (egress not modeled) */
	M("pcu", 0x000000, 0, 1);
	M("qpi", 0x000014, 0, 1);
	M("core", 0x00003C, 0, 1);
	M("core", 0x53003C, 0, 1);          /* usr/os/en bits are not the event */
	M("cbo", 0x01800000, 0, 1);         /* thresh 1 inverted */
	M("cbo", 0x02C40000, 0, 1);         /* thresh 2 inverted edge */
	M("pcu", 0x1F800000, 0, 1);         /* 5-bit thresh */
	M("cbo", 0x00800000, 0, 0);         /* invert with thresh 0: undefined */
	M("ha", 0x00040000, 0, 0);          /* edge with thresh 0 */
	M("cbo", 0x00080000, 0, 0);         /* tid_en */
	M("cbo", 0x00000100, 0, 0);         /* umask on clockticks */
	M("pcu", 0x00200000, 0, 0);         /* FREQ_TRANS_CYCLES (ext) */
	M("pcu", 0x00004000, 0, 0);         /* occ_sel on 0x00 */
	M("pcu", 0x00004080, 0, 1);         /* POWER_STATE_OCCUPANCY.CORES_C0 */
	M("pcu", 0x0000C080, 0, 1);         /* CORES_C6: none, the cores never sleep */
	M("pcu", 0x00000080, 0, 0);         /* occupancy without a state */
	M("pcu", 0x40004080, 0, 0);         /* occ_invert */
	M("pcu", 0x0000000B, 0, 1);         /* FREQ_BAND0_CYCLES */
	M("pcu", 0x0000000E, 0, 1);         /* FREQ_BAND3_CYCLES */
	M("pcu", 0x0000000A, 0, 0);         /* PROCHOT_EXTERNAL_CYCLES */
	M("qpi", 0x00200014, 0, 0);         /* ext 0x14 */
	M("qpi", 0x00000114, 0, 0);
	M("qpi", 0x00000000, 0, 0);         /* TxL_FLITS_G0 */
	M("r2pcie", 0x000000, 0, 0);
	M("ha", 0x000001, 0, 0);            /* REQUESTS */
	M("ubox", 0x000000, 0, 0);          /* no clockticks in the UBox */
	M("ubox", 0x000142, 0, 0);          /* EVENT_MSG */
	M("ubox", 0x000044, 0, 1);          /* LOCK_CYCLES: split locks */
	M("ubox", 0x000144, 0, 0);          /* ... it has no umask */
	M("ubox", 0x000043, 0, 0);          /* U2C_EVENTS */
	/* CBo: the filter decides too (state 22:18, nid 17:10, opc 31:23) */
	M("cbo", 0x000334, 0x7c0000, 1);    /* LLC_LOOKUP DATA_READ, any state */
	M("cbo", 0x000334, 0x040000, 1);    /* ... state I only */
	M("cbo", 0x000334, 0, 0);           /* no state: counts nothing */
	M("cbo", 0x001F34, 0x7c0000, 1);    /* ANY */
	M("cbo", 0x004334, 0x7c0400, 1);    /* DATA_READ + NID, nf=1 */
	M("cbo", 0x004334, 0x7c0000, 1);    /* NID, empty node mask: counts nothing, as on silicon */
	M("cbo", 0x000234, 0x7c0000, 0);    /* no bit 0 */
	M("cbo", 0x000134, 0x7c0000, 0);    /* no request type */
	M("cbo", 0x000737, 0, 1);           /* LLC_VICTIMS M|E|S */
	M("cbo", 0x000837, 0, 0);           /* LLC_VICTIMS.MISS (undefined) */
	M("cbo", 0x004037, 0x400, 1);       /* LLC_VICTIMS.NID */
	M("cbo", 0x000435, 0, 1);           /* TOR_INSERTS.EVICTION */
	M("cbo", 0x000A35, 0, 1);           /* MISS_ALL */
	M("cbo", 0x001035, 0, 1);           /* WB */
	M("cbo", 0x000835, 0, 1);           /* ALL (Intel lists NID_ALL for inserts) */
	M("cbo", 0x002035, 0, 0);           /* 0x20: no sub-event */
	M("cbo", 0x000135, 0x182ull << 23, 1);   /* OPCODE DRd */
	M("cbo", 0x000135, 0x1c4ull << 23, 1);   /* OPCODE WbMtoI */
	M("cbo", 0x000335, 0x1c4ull << 23, 0);   /* MISS_OPCODE WbMtoI: never a miss */
	M("cbo", 0x000335, 0x18cull << 23, 1);   /* MISS_OPCODE WCiLF */
	M("cbo", 0x000335, 0x18dull << 23, 1);   /* MISS_OPCODE WCiL (partial streaming stores) */
	M("cbo", 0x000135, 0x181ull << 23, 0);   /* code reads are not produced */
	M("cbo", 0x000135, 0x19eull << 23, 0);   /* PCIRdCur */
	M("cbo", 0x004A35, 0x800, 1);       /* NID_MISS_ALL nf=2 */
	M("cbo", 0x004A35, 0, 1);           /* empty node mask */
	M("cbo", 0x000836, 0, 1);           /* TOR_OCCUPANCY.ALL */
	M("cbo", 0x01000836, 0, 0);         /* ... with a threshold: cycles not empty */
	M("cbo", 0x001036, 0, 0);           /* WB is an inserts sub-event */
	M("cbo", 0x00080A35, 0, 0);         /* tid_en */
	M("cbo", 0x000113, 0, 0);           /* RXR_INSERTS: the ring is not modeled */
	M("cbo", 0x00011B, 0, 0);           /* RING_AD_USED */
	/* HA */
	M("ha", 0x000301, 0, 1);            /* REQUESTS.READS */
	M("ha", 0x000C01, 0, 1);            /* REQUESTS.WRITES */
	M("ha", 0x000101, 0, 0);            /* half of READS */
	M("ha", 0x000F1A, 0, 1);            /* IMC_WRITES.ALL */
	M("ha", 0x00021A, 0, 1);            /* IMC_WRITES.PARTIAL: partial streaming stores */
	M("ha", 0x00011A, 0, 1);            /* IMC_WRITES.FULL */
	M("ha", 0x00041A, 0, 0);            /* FULL_ISOCH alone: no isochronous traffic */
	M("ha", 0x00081A, 0, 0);            /* PARTIAL_ISOCH alone */
	M("ha", 0x000306, 0, 1);            /* TRACKER_INSERTS.ALL */
	M("ha", 0x000510, 0, 1);            /* TXR_BL DRS_CACHE|DRS_QPI */
	M("ha", 0x000210, 0, 0);            /* TXR_BL.DRS_CORE: no Direct2Core */
	M("ha", 0x000011, 0, 0);            /* DIRECT2CORE_COUNT */
	/* QPI */
	M("qpi", 0x000200, 0, 1);           /* TxL_FLITS_G0.DATA */
	M("qpi", 0x000401, 0, 1);           /* RxL_FLITS_G0.NON_DATA */
	M("qpi", 0x000100, 0, 0);           /* G0.IDLE */
	M("qpi", 0x00201F00, 0, 1);         /* TxL_FLITS_G1 every class */
	M("qpi", 0x00201802, 0, 1);         /* RxL_FLITS_G1.DRS */
	M("qpi", 0x00200201, 0, 1);         /* TxL_FLITS_G2.NDR_AK */
	M("qpi", 0x00200101, 0, 0);         /* G2.NDR_AD */
	M("qpi", 0x00200C03, 0, 0);         /* G2.NCB */
	M("qpi", 0x00000113, 0, 0);         /* DIRECT2CORE */
	/* fixed counters */
	M("ubox-fixed", 0, 0, 1);
	M("imc-fixed", 0xff, 0, 1);
	M("core-fixed", 1, 0, 1);
	M("core-fixed", 2, 0, 1);
	M("core-fixed", 0, 0, 0);           /* instructions retired */
	M("core-fixed", 3, 0, 0);
	/* iMC */
	for (unsigned um = 1; um <= 0xF; um++)
		CHECK_EQ_INT(pmon_sim_models("imc", 0x04 | um << 8, 0), 1, "CAS umask subset");
	M("imc", 0x000004, 0, 0);           /* CAS umask 0 */
	M("imc", 0x001004, 0, 0);           /* CAS umask bit 4 */
	M("imc", 0x000001, 0, 1);           /* ACT_COUNT */
	M("imc", 0x000101, 0, 0);
	M("imc", 0x000102, 0, 1);           /* PRE PAGE_MISS */
	M("imc", 0x000202, 0, 1);           /* PRE PAGE_CLOSE */
	M("imc", 0x000302, 0, 1);
	M("imc", 0x000002, 0, 0);
	M("imc", 0x000402, 0, 0);
	M("imc", 0x000010, 0, 1);           /* RPQ_INSERTS */
	M("imc", 0x000020, 0, 1);           /* WPQ_INSERTS */
	M("imc", 0x000080, 0, 0);           /* RPQ_OCCUPANCY */
	M("imc", 0x000006, 0, 0);           /* DRAM_PRE_ALL */
	M("imc", 0x000000, 0, 0);
	M("imc", 0x01000304, 0, 1);         /* thresh 1 */
	M("imc", 0x02000304, 0, 0);         /* thresh 2 */
	M("imc", 0x01800304, 0, 0);         /* inverted */
	M("imc", 0x01040304, 0, 0);         /* edge */
	M("imc", 0x00020304, 0, 0);         /* bit 17 is reserved in the iMC */
	/* offcore */
	M("core", 0x01B7, 0x600400001ull, 1);     /* DRD LOCAL_DRAM */
	M("core", 0x01BB, 0x67f800002ull, 1);     /* RFO REMOTE_DRAM */
	M("core", 0x01B7, 0x10001ull, 1);         /* DRD ANY_RESPONSE */
	M("core", 0x01B7, 0x10800ull, 1);         /* STREAMING_STORES ANY */
	M("core", 0x01B7, 0x3f803c0001ull, 1);    /* LLC hit */
	M("core", 0x01B7, 0x100040001ull, 1);     /* LLC_HITM, snoop not needed */
	M("core", 0x01B7, 0x800040001ull, 0);     /* LLC hit forwarded: not produced */
	M("core", 0x01B7, 0x107fc00001ull, 1);    /* L3 miss, HITM */
	M("core", 0x01B7, 0x800400001ull, 1);     /* local DRAM, SNP_FWD */
	M("core", 0x01B7, 0x2000400001ull, 0);    /* NON_DRAM */
	M("core", 0x01B7, 0x10008ull, 1);         /* WB ANY_RESPONSE */
	M("core", 0x01B7, 0x80020008ull, 1);      /* WB NO_SUPP SNP_NONE */
	M("core", 0x01B7, 0x10010ull, 1);         /* PF_DATA_RD (the L2 prefetchers) */
	M("core", 0x01B7, 0x10080ull, 0);         /* PF_LLC_DATA_RD: not produced */
	M("core", 0x01B7, 0x10004ull, 0);         /* code reads */
	M("core", 0x01B7, 0x400001ull, 0);        /* no snoop bit */
	M("core", 0x01B7, 0x600404001ull, 0);     /* reserved bit 14 */
	M("core", 0x01B7, 0, 0);
	M("core", 0x02B7, 0x10001ull, 0);         /* umask 2 */
	M("core", 0x01B6, 0x10001ull, 0);
	M("core", 0x018001B7, 0x10001ull, 0);     /* cmask 1 inverted */
	M("core", 0x010001B7, 0x10001ull, 1);     /* cmask 1 */
	/* unknown */
	M("foo", 0, 0, 0);
	M("CBO", 0, 0, 0);
	CHECK_EQ_INT(pmon_sim_models(NULL, 0, 0), 0, "NULL box type");
	M("ha", 0x00100000, 0, 0);          /* reserved bit 20 */
}

/* ------------------------------------------------------------------ sweep */

struct target {
	const char *box;
	int msr;                 /* 1: MSR box on CPU 0; 0: PCI at dev.func */
	uint32_t ctl, ctr;       /* MSR numbers or config offsets of CTL0/CTR0 */
	int dev, func;
	uint32_t valid;          /* the box's control bits (sweep stays valid) */
};

static const struct target targets[] = {
	{ "ubox", 1, 0xC10, 0xC16, 0, 0, 0x1FC6FFFF },
	{ "cbo", 1, 0xD10, 0xD16, 0, 0, 0xFFCEFFFF },
	{ "pcu", 1, 0xC30, 0xC36, 0, 0, 0xDFE6C0FF },
	{ "ha", 0, 0xD8, 0xA0, 14, 1, 0xFFC4FFFF },
	{ "imc", 0, 0xD8, 0xA0, 16, 0, 0xFFC4FFFF },
	{ "qpi", 0, 0xD8, 0xA0, 8, 2, 0xFFE6FFFF },
	{ "r2pcie", 0, 0xD8, 0xA0, 19, 1, 0xFFC6FFFF },
	{ "r3qpi", 0, 0xD8, 0xA0, 19, 5, 0xFFC6FFFF },
	{ "core", 2, 0x186, 0xC1, 0, 0, 0xFFFFFFFF },
};

#define ROW1 (64ull * 4 * 2048)
/* CBo filter of the sweep: every state and node, opcode 0 (not produced) */
#define CBO_FILT 0x7ffc00ull

static int never_occurs(const char *box, uint32_t ctl)
{
	unsigned ev = ctl & 0xFF, um = (ctl >> 8) & 0xFF;
	if (box[0] != 'i')
		return 0;
	return (ev == 0x04 && !(um & 0x07)) || (ev == 0x02 && um == 0x02);
}

/*
 * The sweep's machine: two sockets of one core (CPU 0 on socket 0, CPU 1
 * on socket 1), a direct-mapped 64 KiB LLC (set = line mod 1024), 1-way
 * L1 (16 sets) and L2 (64 sets).  Every line below but R, R2, R3 has its
 * home on socket 0 and is even (QPI link 0).  From empty caches:
 */
#define LA   0ull                  /* LLC set 0, channel 0 row 0 of bank 0 */
#define LB   (64ull << 10)         /* LLC set 0 */
#define LC   (128ull << 10)        /* LLC set 0 */
#define LD   (192ull << 10)        /* LLC set 0, channel 0 */
#define LF   (256ull << 10)
#define LE1  (4ull << 10)          /* L2 set 0, LLC set 64 */
#define LE2  (8ull << 10)          /* L2 set 0, LLC set 128 */
#define R    (32ull << 30)         /* home socket 1 */
#define R2   (R + (64ull << 10))
#define R3   (R + (128ull << 10))
#define LG   (320ull << 10)
static void traffic(void)
{
	pmon_sim_traffic(sim, 0, LA, PMON_SIM_LOAD, 1);      /* DRAM read, snoop of socket 1 */
	pmon_sim_traffic(sim, 1, LA, PMON_SIM_LOAD, 1);      /* socket 0 forwards E, keeps S */
	pmon_sim_traffic(sim, 0, LB, PMON_SIM_LOAD, 1);      /* victim LA: S */
	pmon_sim_traffic(sim, 0, LC, PMON_SIM_STORE, 1);     /* victim LB: E; RFO */
	pmon_sim_traffic(sim, 0, LA, PMON_SIM_LOAD, 1);      /* victim LC: M (written); F fwd */
	pmon_sim_traffic(sim, 0, LD, PMON_SIM_NT_STORE, 1);  /* WCiLF, DRAM write */
	pmon_sim_traffic(sim, 0, LE1, PMON_SIM_STORE, 1);
	pmon_sim_traffic(sim, 0, LE2, PMON_SIM_LOAD, 1);     /* L2 victim LE1: WbMtoI */
	pmon_sim_traffic(sim, 1, LF, PMON_SIM_LOAD, 1);      /* HA 0 data over QPI */
	pmon_sim_traffic(sim, 1, R, PMON_SIM_LOAD, 1);       /* home 1 snoops socket 0 */
	pmon_sim_traffic(sim, 0, R2, PMON_SIM_LOAD, 1);      /* request 0 -> 1 */
	pmon_sim_traffic(sim, 0, R3, PMON_SIM_NT_STORE, 1);  /* completion 1 -> 0 */
	pmon_sim_traffic(sim, 0, ROW1, PMON_SIM_LOAD, 1);    /* bank 0 row 1: page miss */
	pmon_sim_traffic(sim, 0, LG, PMON_SIM_NT_PARTIAL, 1); /* WCiL, underfill, partial */
	pmon_sim_traffic(sim, 0, LG, PMON_SIM_SPLIT_LOCK, 1); /* UBox lock, LG and LG + 64 */
}

static uint64_t drive(const struct target *t, uint32_t ctl)
{
	uint64_t v = 0;

	pmon_sim_flush_caches(sim);        /* the same start every time */

	if (t->msr) {
		wrmsr(0, t->ctl, ctl | 0x400000 | (t->msr == 2 ? 0x10000 : 0));
		wrmsr(0, t->ctr, 0);
	} else {
		wr(0x3f, t->dev, t->func, t->ctl, ctl | 0x400000);
		wr(0x3f, t->dev, t->func, t->ctr, 0);
		wr(0x3f, t->dev, t->func, t->ctr + 4, 0);
	}
	pmon_sim_advance_ns(sim, 1000);
	traffic();
	if (t->msr)
		acc->ops->msr_read(acc, 0, t->ctr, &v, op_why, sizeof op_why);
	else
		v = pci_rd64(at(0x3f, t->dev, t->func), t->ctr);
	return v;
}

static void sweep(void)
{
	static const uint32_t umasks[] = { 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x08, 0x0C, 0x0F, 0x10 };
	unsigned bad_true = 0, bad_false = 0, tried = 0;

	sim_attach(sim_new("sockets=2,cores=1,threads=1,llc=64K,llcways=1,l1=1K,l1ways=1,"
			   "l2=4K,l2ways=1"));
	wrmsr(0, 0xD14, CBO_FILT);
	wrmsr(0, 0x38F, 1);
	wrmsr(0, 0x1A6, 0x3fffff8fffull);   /* every response */
	wrmsr(0, 0x1A7, 0x3fffff8fffull);
	for (size_t ti = 0; ti < sizeof targets / sizeof targets[0]; ti++) {
		const struct target *t = &targets[ti];
		for (unsigned ev = 0; ev < 256; ev++)
			for (size_t u = 0; u < sizeof umasks / sizeof umasks[0]; u++)
				for (int ext = 0; ext < 2; ext++) {
					uint32_t ctl = ev | umasks[u] << 8 | (ext ? 0x200000u : 0);
					if (ctl & ~t->valid)
						continue;
					int want = pmon_sim_models(t->box, ctl, t->box[0] == 'c' &&
								   t->box[1] == 'b' ? CBO_FILT
								   : 0x3fffff8fffull);
					uint64_t got = drive(t, ctl);
					tried++;
					if (want && !got && !never_occurs(t->box, ctl)) {
						bad_true++;
						fprintf(stderr, "%s 0x%x modeled but counted 0\n", t->box, ctl);
					}
					if (!want && got) {
						bad_false++;
						fprintf(stderr, "%s 0x%x not modeled but counted %llu\n",
							t->box, ctl, (unsigned long long)got);
					}
				}
	}
	CHECK(tried > 20000, "sweep size %u", tried);
	printf("test_sim_models: sweep programmed %u control values\n", tried);
	CHECK_EQ_INT(bad_true, 0, "modeled events that did not count");
	CHECK_EQ_INT(bad_false, 0, "unmodeled events that counted");
	sim_teardown();
}

/* The backend op the engine asks: the filter words as encoded (an offcore
 * RSP value in the word of its MSR), a NULL handle for the pure question. */
static void backend_op(void)
{
	const struct pmon_access_ops *ops = &pmon_sim_access_ops;
	const uint64_t none[2] = { 0, 0 };
	const uint64_t rsp0[2] = { 0x10001, 0 }, rsp1[2] = { 0, 0x10001 };
	const uint64_t bad[2] = { 0, 0x4000000000ull };   /* reserved RSP bit */
	char buf[64];

	CHECK(ops->event_modeled != NULL, "sim has event_modeled");
	CHECK_EQ_INT(ops->event_modeled(NULL, "imc", 0x0304, none), 1, "CAS_COUNT op");
	CHECK_EQ_INT(ops->event_modeled(NULL, "imc", 0x0005, none), 0, "imc 0x05 op");
	CHECK_EQ_INT(ops->event_modeled(NULL, "core", 0x01B7, rsp0), 1, "RSP_0 in filt[0]");
	CHECK_EQ_INT(ops->event_modeled(NULL, "core", 0x01BB, rsp1), 1, "RSP_1 in filt[1]");
	CHECK_EQ_INT(ops->event_modeled(NULL, "core", 0x01BB, bad), 0, "reserved RSP bit");
	CHECK_EQ_INT(ops->event_modeled(NULL, "core", 0x01BB, none), 0, "empty RSP");
	CHECK_EQ_INT(ops->event_modeled(NULL, "imc-fixed", 0, none), 1, "iMC fixed op");

	machine("sockets=2,cores=3,threads=1");
	struct pmon_access *a = acc;
	if (a) {
		CHECK(a->ops->topology != NULL, "sim has topology");
		CHECK_EQ_INT(a->ops->topology(a, buf, sizeof buf), 0, "topology");
		CHECK(!strcmp(buf, "package:2 core:3 pu:1"), "topology %s", buf);
		CHECK_EQ_INT(a->ops->topology(a, buf, 8), -1, "topology truncated");
	}
	sim_teardown();
}

int main(void)
{
	cases();
	backend_op();
	sweep();
	return check_done("test_sim_models");
}
