int Solve(int n);
int main() { return Solve(4); }
