kernel-1.traceg
kernel-2.traceg
Collective,all_reduce,bytes=16384,type=bf16,ranks=all
Collective,all_gather,bytes=65536,type=bf16,ranks=all
