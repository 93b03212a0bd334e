/* The layouts of a perf.data file, for the tests that pretty print one
 * recorded by `perf record`: the file header perf writes first, and the
 * records of its data section, each a struct perf_event_header followed by
 * what its type says. The kernel's records are named by enum
 * perf_event_type (<linux/perf_event.h>), those perf adds by enum
 * perf_user_event_type; each record type has a struct named after its
 * enumerator in lower case, the naming pahole's type_enum relies on.
 * Written from the perf.data format (tools/perf/Documentation,
 * perf.data-file-format.txt; libperf's record layouts). */
#include <linux/perf_event.h>

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;

/* Where a part of the file is. */
struct perf_file_section {
	u64 offset;
	u64 size;
};

/* The start of every perf.data file: "PERFILE2", its own size, where the
 * event attributes and the records are, and a bitmap of the feature
 * sections that follow the records. */
struct perf_file_header {
	u64 magic;
	u64 size;
	u64 attr_size;
	struct perf_file_section attrs;
	struct perf_file_section data;
	struct perf_file_section event_types;
	unsigned long adds_features[4];
};

/* An entry of the attrs section. */
struct perf_file_attr {
	struct perf_event_attr attr;
	struct perf_file_section ids;
};

/* Record types perf itself writes, numbered above the kernel's. */
enum perf_user_event_type {
	PERF_RECORD_USER_TYPE_START = 64,
	PERF_RECORD_HEADER_ATTR = 64,
	PERF_RECORD_HEADER_EVENT_TYPE = 65,
	PERF_RECORD_HEADER_TRACING_DATA = 66,
	PERF_RECORD_HEADER_BUILD_ID = 67,
	PERF_RECORD_FINISHED_ROUND = 68,
	PERF_RECORD_ID_INDEX = 69,
	PERF_RECORD_AUXTRACE_INFO = 70,
	PERF_RECORD_AUXTRACE = 71,
	PERF_RECORD_AUXTRACE_ERROR = 72,
	PERF_RECORD_THREAD_MAP = 73,
	PERF_RECORD_CPU_MAP = 74,
	PERF_RECORD_STAT_CONFIG = 75,
	PERF_RECORD_STAT = 76,
	PERF_RECORD_STAT_ROUND = 77,
	PERF_RECORD_EVENT_UPDATE = 78,
	PERF_RECORD_TIME_CONV = 79,
	PERF_RECORD_HEADER_FEATURE = 80,
	PERF_RECORD_COMPRESSED = 81,
	PERF_RECORD_FINISHED_INIT = 82,
	PERF_RECORD_HEADER_MAX
};

/* The kernel's records. PERF_RECORD_EXIT has the layout of FORK but no
 * struct of its name, so it prints as its perf_event_header. */
struct perf_record_mmap {
	struct perf_event_header header;
	u32 pid, tid;
	u64 start, len, pgoff;
	char filename[4096];
};

struct perf_record_mmap2 {
	struct perf_event_header header;
	u32 pid, tid;
	u64 start, len, pgoff;
	union {
		struct {
			u32 maj, min;
			u64 ino, ino_generation;
		};
		struct {
			u8 build_id_size;
			u8 __reserved_1;
			u16 __reserved_2;
			u8 build_id[20];
		};
	};
	u32 prot, flags;
	char filename[4096];
};

struct perf_record_comm {
	struct perf_event_header header;
	u32 pid, tid;
	char comm[16];
};

struct perf_record_namespaces {
	struct perf_event_header header;
	u32 pid, tid;
	u64 nr_namespaces;
	struct perf_ns_link_info link_info[];
};

struct perf_record_fork {
	struct perf_event_header header;
	u32 pid, ppid, tid, ptid;
	u64 time;
};

struct perf_record_lost {
	struct perf_event_header header;
	u64 id, lost;
};

struct perf_record_lost_samples {
	struct perf_event_header header;
	u64 lost;
};

struct perf_record_read {
	struct perf_event_header header;
	u32 pid, tid;
	u64 value, time_enabled, time_running, id, lost;
};

struct perf_record_throttle {
	struct perf_event_header header;
	u64 time, id, stream_id;
};

struct perf_record_ksymbol {
	struct perf_event_header header;
	u64 addr;
	u32 len;
	u16 ksym_type;
	u16 flags;
	char name[512];
};

struct perf_record_bpf_event {
	struct perf_event_header header;
	u16 type, flags;
	u32 id;
	u8 tag[8];
};

struct perf_record_cgroup {
	struct perf_event_header header;
	u64 id;
	char path[4096];
};

struct perf_record_text_poke {
	struct perf_event_header header;
	u64 addr;
	u16 old_len, new_len;
	u8 bytes[];
};

struct perf_record_sample {
	struct perf_event_header header;
	u64 array[];
};

struct perf_record_switch {
	struct perf_event_header header;
	u32 next_prev_pid, next_prev_tid;
};

struct perf_record_aux {
	struct perf_event_header header;
	u64 aux_offset, aux_size, flags;
};

struct perf_record_itrace_start {
	struct perf_event_header header;
	u32 pid, tid;
};

/* perf's own records. */
struct perf_record_header_attr {
	struct perf_event_header header;
	struct perf_event_attr attr;
	u64 id[];
};

struct perf_record_header_tracing_data {
	struct perf_event_header header;
	u32 size;
};

struct perf_record_header_build_id {
	struct perf_event_header header;
	int pid;
	union {
		u8 build_id[24];
		struct {
			u8 data[20];
			u8 size;
			u8 reserved1__;
			u16 reserved2__;
		};
	};
	char filename[];
};

struct id_index_entry {
	u64 id, idx, cpu, tid;
};

struct perf_record_id_index {
	struct perf_event_header header;
	u64 nr;
	struct id_index_entry entries[];
};

struct perf_record_auxtrace_info {
	struct perf_event_header header;
	u32 type;
	u32 reserved__;
	u64 priv[];
};

struct perf_record_auxtrace {
	struct perf_event_header header;
	u64 size, offset, reference;
	u32 idx, tid, cpu;
	u32 reserved__;
};

struct perf_record_thread_map_entry {
	u64 pid;
	char comm[16];
};

struct perf_record_thread_map {
	struct perf_event_header header;
	u64 nr;
	struct perf_record_thread_map_entry entries[];
};

/* A CPU map: a list of CPUs, a bitmap of 32- or 64-bit words, or a range
 * (type 2, in the first words of the union); packed, as perf writes it. */
struct cpu_map_entries {
	u16 nr;
	u16 cpu[];
};

struct perf_record_mask_cpu_map32 {
	u16 nr, long_size;
	u32 mask[];
};

struct perf_record_mask_cpu_map64 {
	u16 nr, long_size;
	char __pad[4];
	u64 mask[];
};

struct __attribute__((packed)) perf_record_cpu_map_data {
	u16 type;
	union {
		struct cpu_map_entries cpus_data;
		struct perf_record_mask_cpu_map32 mask32_data;
		struct perf_record_mask_cpu_map64 mask64_data;
	};
};

struct perf_record_cpu_map {
	struct perf_event_header header;
	struct perf_record_cpu_map_data data;
};

struct perf_record_stat_config_entry {
	u64 tag, val;
};

struct perf_record_stat_config {
	struct perf_event_header header;
	u64 nr;
	struct perf_record_stat_config_entry data[];
};

struct perf_record_stat {
	struct perf_event_header header;
	u64 id;
	u32 cpu, thread;
	union {
		struct {
			u64 val, ena, run;
		};
		u64 values[3];
	};
};

struct perf_record_stat_round {
	struct perf_event_header header;
	u64 type, time;
};

struct perf_record_event_update {
	struct perf_event_header header;
	u64 type, id;
	char data[];
};

struct perf_record_time_conv {
	struct perf_event_header header;
	u64 time_shift, time_mult, time_zero, time_cycles, time_mask;
	u8 cap_user_time_zero, cap_user_time_short;
	u8 reserved[6];
};

struct perf_record_header_feature {
	struct perf_event_header header;
	u64 feat_id;
	char data[];
};

struct perf_record_compressed {
	struct perf_event_header header;
	char data[];
};

/* Objects of every type, so that the compiler emits them all. */
struct perf_file_header file_header;
struct perf_file_attr file_attr;
enum perf_event_type kernel_record_type;
enum perf_user_event_type user_record_type;
struct perf_record_mmap r_mmap;
struct perf_record_mmap2 r_mmap2;
struct perf_record_comm r_comm;
struct perf_record_namespaces r_namespaces;
struct perf_record_fork r_fork;
struct perf_record_lost r_lost;
struct perf_record_lost_samples r_lost_samples;
struct perf_record_read r_read;
struct perf_record_throttle r_throttle;
struct perf_record_ksymbol r_ksymbol;
struct perf_record_bpf_event r_bpf_event;
struct perf_record_cgroup r_cgroup;
struct perf_record_text_poke r_text_poke;
struct perf_record_sample r_sample;
struct perf_record_switch r_switch;
struct perf_record_aux r_aux;
struct perf_record_itrace_start r_itrace_start;
struct perf_record_header_attr r_header_attr;
struct perf_record_header_tracing_data r_tracing_data;
struct perf_record_header_build_id r_build_id;
struct perf_record_id_index r_id_index;
struct perf_record_auxtrace_info r_auxtrace_info;
struct perf_record_auxtrace r_auxtrace;
struct perf_record_thread_map r_thread_map;
struct perf_record_cpu_map r_cpu_map;
struct perf_record_stat_config r_stat_config;
struct perf_record_stat r_stat;
struct perf_record_stat_round r_stat_round;
struct perf_record_event_update r_event_update;
struct perf_record_time_conv r_time_conv;
struct perf_record_header_feature r_header_feature;
struct perf_record_compressed r_compressed;
