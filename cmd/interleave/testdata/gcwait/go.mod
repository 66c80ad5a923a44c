module example.com/gcwait

go 1.26
