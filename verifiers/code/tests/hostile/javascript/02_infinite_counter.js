// expect: time_limit
let n = 0;
while (true) n++;
