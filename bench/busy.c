// SPDX-License-Identifier: GPL-2.0
/*
 * busy SECONDS - two processes spinning for SECONDS: the load that
 * bench/record.sh and bench/ab.sh record beside, one per CPU of two.
 */
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

volatile unsigned long sink;

int main(int argc, char **argv)
{
	time_t end = time(NULL) + (argc > 1 ? atoi(argv[1]) : 1);

	fork();
	while (time(NULL) < end)
		for (int i = 0; i < 1000000; i++)
			sink += i;
	return 0;
}
