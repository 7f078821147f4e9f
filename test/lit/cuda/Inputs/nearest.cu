// Nearest neighbours in the style of Rodinia's nn: the host reads its
// records into a std::vector, copies them to the device from &v[0], and the
// kernel reaches its element through a pointer moved by the thread's index.
#include <cmath>
#include <cstdio>
#include <vector>

typedef struct latLong {
  float lat;
  float lng;
} LatLong;

__global__ void euclid(LatLong *d_locations, float *d_distances, int n,
                       float lat, float lng) {
  int id = blockDim.x * blockIdx.x + threadIdx.x;
  LatLong *latLong = d_locations + id;
  if (id < n) {
    float *dist = d_distances + id;
    *dist = (float)sqrt((lat - latLong->lat) * (lat - latLong->lat) +
                        (lng - latLong->lng) * (lng - latLong->lng));
  }
}

static void load(std::vector<LatLong> &locations, int n) {
  for (int i = 0; i < n; i++) {
    LatLong l;
    l.lat = (i * 37 % 180) - 90.0f;
    l.lng = (i * 91 % 360) - 180.0f;
    locations.push_back(l);
  }
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 4096;
  std::vector<LatLong> locations;
  load(locations, n);
  LatLong *d_locations;
  float *d_distances;
  cudaMalloc((void **)&d_locations, sizeof(LatLong) * n);
  cudaMalloc((void **)&d_distances, sizeof(float) * n);
  cudaMemcpy(d_locations, &locations[0], sizeof(LatLong) * n,
             cudaMemcpyHostToDevice);
  euclid<<<(n + 255) / 256, 256>>>(d_locations, d_distances, n, 30.0f, 90.0f);
  std::vector<float> distances(n);
  cudaMemcpy(&distances[0], d_distances, sizeof(float) * n,
             cudaMemcpyDeviceToHost);
  int best = 0;
  for (int i = 1; i < n; i++)
    if (distances[i] < distances[best])
      best = i;
  printf("nearest %d at %.3f\n", best, distances[best]);
  cudaFree(d_locations);
  cudaFree(d_distances);
  return 0;
}
