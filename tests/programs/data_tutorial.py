# Source: pytorch/tutorials beginner_source/basics/data_tutorial.py (custom Dataset, DataLoader)
# https://pytorch.org/tutorials/beginner/basics/data_tutorial.html
# Changed: images generated in memory instead of FashionMNIST files; torch.manual_seed(0).
import torch
from torch.utils.data import DataLoader, Dataset


class CustomImageDataset(Dataset):
    def __init__(self, n, transform=None, target_transform=None):
        g = torch.Generator().manual_seed(1)
        self.images = torch.rand(n, 1, 4, 4, generator=g)
        self.labels = torch.randint(0, 10, (n,), generator=g)
        self.transform = transform
        self.target_transform = target_transform

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, idx):
        image = self.images[idx]
        label = int(self.labels[idx])
        if self.transform:
            image = self.transform(image)
        if self.target_transform:
            label = self.target_transform(label)
        return image, label


torch.manual_seed(0)
training_data = CustomImageDataset(
    20, target_transform=lambda y: torch.zeros(10).scatter_(0, torch.tensor(y), value=1)
)
train_dataloader = DataLoader(training_data, batch_size=8, shuffle=True)
train_features, train_labels = next(iter(train_dataloader))
print(f"Feature batch shape: {train_features.size()}")
print(f"Labels batch shape: {train_labels.size()}")
print(train_labels)
for epoch in range(2):
    for i, (x, y) in enumerate(train_dataloader):
        print(epoch, i, x.shape[0], y.argmax(1).tolist())
