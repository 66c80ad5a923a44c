module example.com/oldmod

go 1.12
