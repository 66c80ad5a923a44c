module example.com/examples

go 1.22
