// SPDX-License-Identifier: GPL-2.0
/*
 * record-numa-tag CPU N TAG - the workload of record-numa.sh: on CPU only,
 * named numa-tag, N lseek(2)s on /dev/null to offsets TAG * 1000000 + i,
 * so that each sys_enter_lseek record says who made it and which one it
 * is; a pause every 500 lets the reader keep up under TCG.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int cpu = atoi(argv[1]), n = atoi(argv[2]), tag = atoi(argv[3]), fd, i;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (argc != 4 || sched_setaffinity(0, sizeof(set), &set))
		return 1;
	prctl(PR_SET_NAME, "numa-tag");
	fd = open("/dev/null", O_RDONLY);
	for (i = 0; i < n; i++) {
		lseek(fd, (off_t)tag * 1000000 + i, SEEK_SET);
		if (i % 500 == 499)
			usleep(2000);
	}
	return 0;
}
