# A three-rank trace of the small_workload kernels (ranks 1 and 2 replay rank-1) with
# an all_reduce and an all_gather among all ranks, for the sanitizer runs.
rank-0
rank-1
rank-1
