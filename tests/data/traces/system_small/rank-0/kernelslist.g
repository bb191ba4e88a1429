kernel-1.traceg
Collective,all_reduce,bytes=16384,type=bf16,ranks=all
kernel-2.traceg
Collective,all_gather,bytes=65536,type=bf16,ranks=all
